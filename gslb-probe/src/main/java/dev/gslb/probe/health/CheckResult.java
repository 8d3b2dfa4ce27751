package dev.gslb.probe.health;

/** One check's outcome and the reason an operator sees ("connect refused", "status 503"...). */
public record CheckResult(boolean ok, String reason) {
    public static CheckResult ok(String reason) {
        return new CheckResult(true, reason);
    }

    public static CheckResult fail(String reason) {
        return new CheckResult(false, reason);
    }
}
