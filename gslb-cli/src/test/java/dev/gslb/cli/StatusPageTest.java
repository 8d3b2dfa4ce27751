package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.config.ConfigLoader;
import dev.gslb.probe.Awaits;
import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.proximity.Path;
import dev.gslb.server.GslbServer;
import dev.gslb.topology.Address;
import java.io.File;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.Type;

/**
 * The status page in a real browser: Debian's chromium, headless, driven by Selenium through
 * Debian's chromedriver, against a real server whose proximity table was filled by real queries
 * (and probes of them). Screenshots of each state go to target/status-*.png; the overview is also
 * the README's picture (docs/status-page.png).
 */
class StatusPageTest {
    @TempDir
    java.nio.file.Path dir;

    ChromeDriver browser;
    GslbServer server;

    @AfterEach
    void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (server != null) {
            server.close();
        }
    }

    ChromeDriver browser(int width, int height) throws Exception {
        ChromeOptions o = new ChromeOptions();
        o.setBinary("/usr/bin/chromium"); // Debian's: Selenium Manager has nothing to find or fetch
        o.addArguments(
                "--headless=new",
                "--no-sandbox", // the tests run as root
                "--disable-dev-shm-usage",
                "--disable-gpu",
                "--window-size=" + width + "," + height,
                "--user-data-dir=" + Files.createTempDirectory(dir, "chromium"));
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        o.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File("/usr/bin/chromedriver"))
                .usingAnyFreePort()
                .build();
        return new ChromeDriver(service, o);
    }

    String config(int port) {
        return LoopbackConfig.local("gslb-cnc", "CNC").replace("protocols: [udp]}", "protocols: [udp], exclude: []}")
                + """
                zones: [{file: example.com.zone}]
                datacenters: [CNC, TEL]
                monitors:
                  - {name: svc, type: tcp, port: %d, interval: 200ms, timeout: 100ms, up: 1, down: 2}
                virtual-servers:
                  - {name: cnc, address: 127.0.1.1, datacenter: CNC, monitors: [svc]}
                  - {name: tel, address: 127.0.1.2, datacenter: TEL}
                pools:
                  - {name: www, members: [cnc, tel]}
                wide-ips:
                  - {name: www.example.com, pools: [www], ttl: 10}
                topology:
                  data: [%s]
                  records:
                    - {region: chinanet, datacenter: TEL}
                    - {region: unicom, datacenter: CNC}
                """.formatted(port, new File("../topology-data/china-operator-ip").getAbsolutePath());
    }

    static void ask(GslbServer s, String from) throws Exception {
        SimpleResolver r = new SimpleResolver(s.dns().boundAddresses().getFirst());
        r.setLocalAddress(new InetSocketAddress(InetAddress.ofLiteral(from), 0));
        r.setTimeout(Duration.ofSeconds(2));
        r.send(Message.newQuery(Record.newRecord(Name.fromString("www.example.com."), Type.A, DClass.IN)));
    }

    File shot(String name) throws Exception {
        File png = browser.getScreenshotAs(OutputType.FILE);
        File to = new File("target/status-" + name + ".png");
        Files.copy(png.toPath(), to.toPath(), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertThat(to.length()).as("a screenshot with something on it: " + to).isGreaterThan(20_000);
        return to;
    }

    WebDriverWait waiting(int seconds) {
        return new WebDriverWait(browser, Duration.ofSeconds(seconds));
    }

    List<LogEntry> consoleErrors() {
        return browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
                .toList();
    }

    @Test
    void thePageShowsTheSiteSearchesTheTableExplainsAndFollowsAServerDown() throws Exception {
        Files.copy(java.nio.file.Path.of("../zones/example.com.zone"), dir.resolve("example.com.zone"));
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        ServerSocket service = FailoverEndToEndTest.listen("127.0.1.1", port);
        try {
            Files.writeString(dir.resolve("gslb.yaml"), config(port));
            server = new GslbServer(ConfigLoader.load(dir.resolve("gslb.yaml")));
            server.start();
            for (int i = 61; i <= 65; i++) { // resolvers that really ask, and are really probed
                ask(server, "127.0.0." + i);
            }
            Address ldns = Address.parse("127.0.0.61");
            Awaits.until(
                    "127.0.0.61 probed",
                    Duration.ofSeconds(10),
                    () -> server.proximity().get(ldns) != null
                            && server.proximity().get(ldns).path("CNC") != null);
            assertThat(server.proximity().get(ldns).path("CNC")).as("probed").isNotNull();

            browser = browser(1280, 800);
            browser.get("http://" + server.admin().address() + "/");
            waiting(10)
                    .until(d -> d.findElements(By.cssSelector("tr[data-server='cnc'] .state-up"))
                                    .size()
                            == 1);
            String dcs = browser.findElement(By.id("dcs")).getText();
            assertThat(dcs).contains("CNC (this instance)", "TEL", "cnc", "tel", "127.0.1.1", "127.0.1.2");
            assertThat(browser.findElement(By.id("config")).getText()).contains("configuration generation 0");
            waiting(10).until(d -> d.findElement(By.id("ldns-counts")).getText().contains("5 LDNS"));
            waiting(15)
                    .until(d -> d.findElements(By.cssSelector("#regions tr[data-region='chinanet']"))
                                    .size()
                            == 1);
            waiting(10)
                    .until(d ->
                            !d.findElements(By.cssSelector("#rtt-chart rect")).isEmpty());
            File overview = shot("overview");
            Files.copy(
                    overview.toPath(),
                    java.nio.file.Path.of("../docs/status-page.png"),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);

            WebElement search = browser.findElement(By.id("ldns-search"));
            search.sendKeys("127.0.0.61");
            browser.findElement(By.cssSelector("#ldns-form button")).click();
            waiting(10)
                    .until(d -> d.findElements(By.cssSelector("#ldns-table tr[data-ldns]"))
                                    .size()
                            == 1);
            String row = browser.findElement(By.cssSelector("#ldns-table tr[data-ldns='127.0.0.61']"))
                    .getText();
            assertThat(row)
                    .as("its CNC path, the data center its answers keep to, and where it is sent")
                    .containsPattern("\\d+\\.\\d ms / 100 %")
                    .contains(", kept CNC")
                    .contains("CNC");
            assertThat(browser.findElement(By.id("ldns-matched")).getText()).startsWith("1 match ");
            shot("search");

            browser.findElement(By.id("why-ldns")).sendKeys("202.96.128.86");
            browser.findElement(By.id("why-go")).click();
            waiting(10).until(d -> d.findElement(By.id("why-result")).getText().contains("decided by"));
            assertThat(browser.findElement(By.id("why-result")).getText())
                    .as("a China Telecom resolver without paths: topology sends it to TEL")
                    .contains("decided by topology", "127.0.1.2 (tel in TEL)", "region chinanet");
            shot("why");

            service.close(); // the monitor's target stops: cnc goes DOWN on the page, without a reload
            waiting(15)
                    .until(d -> d.findElements(By.cssSelector("tr[data-server='cnc'] .state-down"))
                                    .size()
                            == 1);
            shot("server-down");
            assertThat(consoleErrors()).as("no console errors").isEmpty();

            long wide = (Long) ((JavascriptExecutor) browser).executeScript("return window.innerWidth;");
            browser.manage().window().setSize(new Dimension(390, 844)); // a phone
            waiting(10).until(d -> (Long) ((JavascriptExecutor) d).executeScript("return window.innerWidth;") < wide);
            long overflow = (Long) ((JavascriptExecutor) browser)
                    .executeScript("return document.documentElement.scrollWidth - window.innerWidth;");
            assertThat(overflow)
                    .as("no sideways scrolling of the page at a phone's width")
                    .isLessThanOrEqualTo(0);
            shot("narrow");
        } finally {
            service.close();
        }
    }

    /** A million LDNS: the first view (identity, sites, counts) comes from sums and one page, never the table. */
    @Test
    void aMillionLdnsTheFirstViewComesQuickly() throws Exception {
        Files.copy(java.nio.file.Path.of("../zones/example.com.zone"), dir.resolve("example.com.zone"));
        Files.writeString(
                dir.resolve("gslb.yaml"),
                LoopbackConfig.local("gslb-cnc", "CNC")
                                .replace("protocols: [udp]}", "protocols: [udp], flush-interval: 1h}")
                        + LoopbackConfig.shared(""));
        server = new GslbServer(ConfigLoader.load(dir.resolve("gslb.yaml")));
        server.start();
        long now = System.currentTimeMillis();
        for (int i = 0; i < 1_000_000; i++) {
            Address a = Address.parse("10." + (i >> 16) + "." + ((i >> 8) & 255) + "." + (i & 255));
            server.proximity()
                    .recordPath(a, Path.of("CNC", 5_000 + i % 90_000, 10_000, 0, ProbeProtocol.DNS_DOT, now, "t"));
            server.proximity()
                    .recordPath(a, Path.of("TEL", 20_000 + i % 70_000, 10_000, 0, ProbeProtocol.DNS_DOT, now, "t"));
        }
        assertThat(server.proximity().size()).isEqualTo(1_000_000);
        browser = browser(1280, 800);
        for (int run = 1; run <= 2; run++) {
            long start = System.nanoTime();
            browser.get("http://" + server.admin().address() + "/");
            waiting(20).until(d -> d.findElement(By.id("ldns-counts")).getText().startsWith("1,000,000 LDNS"));
            long firstView = (System.nanoTime() - start) / 1_000_000;
            waiting(20)
                    .until(d -> d.findElement(By.id("ldns-matched")).getText().startsWith("1,000,000 matches"));
            long page = (System.nanoTime() - start) / 1_000_000;
            Object inPage = ((JavascriptExecutor) browser).executeScript("return Math.round(window.firstViewMs);");
            System.out.printf(
                    "status page with 1,000,000 LDNS, run %d: first view (sites, counts) after %d ms (%s ms by the page's"
                            + " clock), the first page of the table after %d ms%n",
                    run, firstView, inPage, page);
        }
        assertThat(browser.findElements(By.cssSelector("#ldns-table tr[data-ldns]")))
                .as("one page, not the table")
                .hasSize(25);
        waiting(20)
                .until(d -> !d.findElements(By.cssSelector("#rtt-chart rect")).isEmpty());
        shot("million");
        assertThat(consoleErrors()).isEmpty();
    }
}
