package dev.gslb.sync;

import dev.gslb.probe.store.StateFile;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Date;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedKeyManager;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * This instance's identity towards its peers: an EC P-256 key pair and a self-signed certificate
 * (made with BouncyCastle at first start), kept in one PEM file of the state folder, mode 600.
 * Peers pin the certificate's SHA-256 fingerprint; no CA is involved.
 */
public final class SyncIdentity {
    private static final Pattern PEM = Pattern.compile("-----BEGIN ([A-Z ]+)-----([^-]+)-----END \\1-----");
    private static final Duration VALIDITY = Duration.ofDays(100 * 365); // pinned, not CA-checked: no renewal needed

    private final PrivateKey key;
    private final X509Certificate certificate;
    private final String fingerprint;

    private SyncIdentity(PrivateKey key, X509Certificate certificate) {
        this.key = key;
        this.certificate = certificate;
        this.fingerprint = fingerprint(certificate);
    }

    /** The identity in {@code file}, generated when the file does not exist. */
    public static SyncIdentity loadOrCreate(Path file, String instance) throws IOException {
        if (!Files.exists(file)) {
            SyncIdentity created = generate(instance);
            if (StateFile.createPrivate(file, created.pem().getBytes(StandardCharsets.US_ASCII))) {
                return created;
            } // another process made it meanwhile: read that one
        }
        StateFile.requirePrivate(file);
        PrivateKey key = null;
        X509Certificate cert = null;
        Matcher m = PEM.matcher(Files.readString(file, StandardCharsets.US_ASCII));
        try {
            while (m.find()) {
                byte[] der = Base64.getMimeDecoder().decode(m.group(2));
                switch (m.group(1)) {
                    case "PRIVATE KEY" ->
                        key = KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(der));
                    case "CERTIFICATE" ->
                        cert = (X509Certificate) CertificateFactory.getInstance("X.509")
                                .generateCertificate(new ByteArrayInputStream(der));
                    default -> throw new IOException(file + ": unexpected PEM block " + m.group(1));
                }
            }
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IOException(
                    file + ": not a sync identity (" + e.getMessage() + "); move it aside to make a new one,"
                            + " then pair again",
                    e);
        }
        if (key == null || cert == null) {
            throw new IOException(file + ": needs a PRIVATE KEY and a CERTIFICATE block");
        }
        return new SyncIdentity(key, cert);
    }

    static SyncIdentity generate(String instance) {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPair pair = g.generateKeyPair();
            X500Name name = new X500Name("CN=gslb " + instance.replaceAll("[^A-Za-z0-9._-]", "_"));
            Instant now = Instant.now();
            var builder = new JcaX509v3CertificateBuilder(
                    name,
                    new BigInteger(64, new SecureRandom()),
                    Date.from(now.minus(Duration.ofDays(1))),
                    Date.from(now.plus(VALIDITY)),
                    name,
                    pair.getPublic());
            X509Certificate cert = new JcaX509CertificateConverter()
                    .getCertificate(
                            builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(pair.getPrivate())));
            return new SyncIdentity(pair.getPrivate(), cert);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("cannot make a sync identity: " + e.getMessage(), e);
        }
    }

    private String pem() {
        try {
            Base64.Encoder b64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII));
            return "-----BEGIN PRIVATE KEY-----\n" + b64.encodeToString(key.getEncoded())
                    + "\n-----END PRIVATE KEY-----\n"
                    + "-----BEGIN CERTIFICATE-----\n" + b64.encodeToString(certificate.getEncoded())
                    + "\n-----END CERTIFICATE-----\n";
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** SHA-256 of the certificate, hex: what peers pin. */
    public String fingerprint() {
        return fingerprint;
    }

    static String fingerprint(java.security.cert.Certificate cert) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(cert.getEncoded()));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * TLS 1.3 over a connected socket, as the dialler or the acceptor; both sides present a
     * certificate (the acceptor requires one) and check it with the context's {@link PinnedTrust}.
     */
    static SSLSocket over(SSLContext tls, Socket raw, boolean dialler) throws IOException {
        SSLSocket s = (SSLSocket)
                tls.getSocketFactory().createSocket(raw, raw.getInetAddress().getHostAddress(), raw.getPort(), true);
        s.setUseClientMode(dialler);
        s.setNeedClientAuth(!dialler);
        s.setEnabledProtocols(new String[] {"TLSv1.3"});
        return s;
    }

    /** A TLS 1.3 context presenting this identity and trusting what {@code trust} accepts. */
    SSLContext context(TrustManager trust) {
        try {
            SSLContext ctx = SSLContext.getInstance("TLSv1.3");
            ctx.init(new KeyManager[] {new Presenter()}, new TrustManager[] {trust}, new SecureRandom());
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS for peer sync: " + e.getMessage(), e);
        }
    }

    /**
     * Presents the identity's key and certificate, on either side. Not a key store with a key
     * manager factory: a PKCS12 store encrypts the key it is given and decrypts it again (10,000
     * PBKDF2 rounds each way), a tenth of a second of every start.
     */
    private final class Presenter extends X509ExtendedKeyManager {
        private static final String ALIAS = "sync";

        private String[] aliases(String keyType) {
            return alias(keyType) == null ? null : new String[] {ALIAS};
        }

        private String alias(String keyType) {
            return key.getAlgorithm().equals(keyType) ? ALIAS : null;
        }

        private String alias(String[] keyTypes) {
            return keyTypes != null && Arrays.asList(keyTypes).contains(key.getAlgorithm()) ? ALIAS : null;
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return aliases(keyType);
        }

        @Override
        public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
            return alias(keyTypes);
        }

        @Override
        public String chooseEngineClientAlias(String[] keyTypes, Principal[] issuers, SSLEngine engine) {
            return alias(keyTypes);
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return aliases(keyType);
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return alias(keyType);
        }

        @Override
        public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
            return alias(keyType);
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return ALIAS.equals(alias) ? new X509Certificate[] {certificate} : null;
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return ALIAS.equals(alias) ? key : null;
        }
    }
}
