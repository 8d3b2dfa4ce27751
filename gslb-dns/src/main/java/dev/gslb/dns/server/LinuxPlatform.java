package dev.gslb.dns.server;

/**
 * The platforms the FFM calls of this package are written for: Linux on x86-64 or aarch64, whose
 * struct layouts ({@link NativeUdp}) and system-call numbers ({@link TimeSlice}) they use.
 * Anywhere else netty serves UDP and the DNS threads keep the scheduler's slice.
 */
final class LinuxPlatform {
    /** Linux on x86-64 or aarch64. */
    static final boolean SUPPORTED;
    /** Linux on x86-64 (else aarch64, when {@link #SUPPORTED}). */
    static final boolean X86_64;

    static {
        String arch = System.getProperty("os.arch");
        boolean linux = "Linux".equals(System.getProperty("os.name"));
        X86_64 = linux && "amd64".equals(arch);
        SUPPORTED = X86_64 || linux && "aarch64".equals(arch);
    }

    private LinuxPlatform() {}
}
