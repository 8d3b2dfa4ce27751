package dev.gslb.dns.zone;

/** One thing wrong in a zone file, located so an operator can fix it. */
public record ZoneProblem(String file, int line, String message) {
    @Override
    public String toString() {
        return line > 0 ? file + ":" + line + ": " + message : file + ": " + message;
    }
}
