package dev.gslb.sync;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.function.Predicate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Trusts a certificate only by its pinned SHA-256 fingerprint: peers are paired, not vouched for
 * by a CA, so names and chains are not checked. A certificate that is not pinned fails the TLS
 * handshake, before any application data.
 */
final class PinnedTrust extends X509ExtendedTrustManager {
    private final Predicate<String> pinned;

    /** {@code pinned} says whether a fingerprint (hex SHA-256) is accepted right now. */
    PinnedTrust(Predicate<String> pinned) {
        this.pinned = pinned;
    }

    private void check(X509Certificate[] chain) throws CertificateException {
        if (chain == null || chain.length == 0) {
            throw new CertificateException("no certificate");
        }
        String fp = SyncIdentity.fingerprint(chain[0]);
        if (!pinned.test(fp)) {
            throw new CertificateException("certificate " + fp.substring(0, 16) + "... is not pinned (not paired)");
        }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        check(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        check(chain);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        check(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        check(chain);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        check(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        check(chain);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
    }
}
