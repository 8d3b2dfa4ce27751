package dev.gslb.cli;

import java.net.InetAddress;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Values the CLI checks itself before asking the server, so that a typo is a usage error (exit 2,
 * one line) like a missing option, not a refusal of the server (exit 1).
 */
final class ArgumentTypes {
    private ArgumentTypes() {}

    /** An IPv4 or IPv6 address written as one (no name: a DNS lookup could hang a command). */
    static final class Ip implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            try {
                return InetAddress.ofLiteral(value.strip()).getHostAddress();
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("'" + value + "' is not an IPv4 or IPv6 address");
            }
        }
    }

    /** A or AAAA, the record types a wide IP answers. */
    static final class AddressRecord implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            String t = value.strip().toUpperCase(Locale.ROOT);
            if (!t.equals("A") && !t.equals("AAAA")) {
                throw new TypeConversionException("'" + value + "': a wide IP answers A or AAAA");
            }
            return t;
        }
    }
}
