package dev.gslb.probe.snmp;

import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.util.Locale;
import org.snmp4j.security.AuthHMAC192SHA256;
import org.snmp4j.security.AuthSHA;
import org.snmp4j.security.PrivAES128;
import org.snmp4j.security.PrivAES256;
import org.snmp4j.smi.OID;

/** An SNMP v3 (USM) user: authentication sha or sha256; privacy aes or aes256, or none. */
public record SnmpV3User(
        String name, String authProtocol, String authPassword, String privProtocol, String privPassword) {
    static final Setting<String> NAME = Setting.of("name", String.class, null, "the USM user");
    static final Setting<String> AUTH_PROTOCOL =
            Setting.of("auth-protocol", String.class, null, "sha or sha256").shown("sha");
    static final Setting<String> AUTH_PASSWORD = Setting.of(
                    "auth-password", String.class, null, "at least 8 characters (or auth-password-file:)")
            .asSecret();
    static final Setting<String> PRIV_PROTOCOL =
            Setting.of("priv-protocol", String.class, null, "aes or aes256").shown("aes");
    static final Setting<String> PRIV_PASSWORD = Setting.of(
                    "priv-password", String.class, null, "at least 8 characters (or priv-password-file:)")
            .asSecret();
    public static final SettingsTable<SnmpV3User> SETTINGS =
            SettingsTable.of(SnmpV3User.class, NAME, AUTH_PROTOCOL, AUTH_PASSWORD, PRIV_PROTOCOL, PRIV_PASSWORD);

    public SnmpV3User {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("an SNMP v3 user needs 'name:'");
        }
        if (authPassword != null && authPassword.length() < 8 || privPassword != null && privPassword.length() < 8) {
            throw new IllegalArgumentException("SNMP v3 passwords need at least 8 characters (RFC 3414)");
        }
        if (privPassword != null && authPassword == null) {
            throw new IllegalArgumentException("SNMP v3 privacy needs authentication too");
        }
        authOid();
        privOid();
    }

    OID authOid() {
        return switch (authProtocol == null ? "sha" : authProtocol.toLowerCase(Locale.ROOT)) {
            case "sha" -> AuthSHA.ID;
            case "sha256" -> AuthHMAC192SHA256.ID;
            default ->
                throw new IllegalArgumentException("SNMP v3 auth-protocol '" + authProtocol + "': use sha or sha256");
        };
    }

    OID privOid() {
        return switch (privProtocol == null ? "aes" : privProtocol.toLowerCase(Locale.ROOT)) {
            case "aes", "aes128" -> PrivAES128.ID;
            case "aes256" -> PrivAES256.ID;
            default ->
                throw new IllegalArgumentException("SNMP v3 priv-protocol '" + privProtocol + "': use aes or aes256");
        };
    }
}
