package dev.gslb.server;

import dev.gslb.dns.wideip.PersistenceTable;
import dev.gslb.sync.PeerSync;
import dev.gslb.sync.PersistenceExchange;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xbill.DNS.Name;
import org.xbill.DNS.TextParseException;

/**
 * Persistence entries made here go to the peers; theirs come in (docs/operator-guide.md
 * "Persistence").
 */
final class SharedPersistence implements PersistenceExchange {
    private static final Logger log = LoggerFactory.getLogger(GslbServer.class);

    private final PersistenceTable table;

    private SharedPersistence(PersistenceTable table) {
        this.table = table;
    }

    static void share(PersistenceTable table, PeerSync sync) {
        table.onRecorded(e -> sync.publishPersistence(
                new PersistenceExchange.Persisted(e.wideIp().toString(), e.hi(), e.lo(), e.server(), e.expiresAt())));
        sync.exchangePersistence(new SharedPersistence(table));
    }

    @Override
    public void received(Persisted p) {
        try {
            table.received(
                    new PersistenceTable.Entry(Name.fromString(p.wideIp()), p.hi(), p.lo(), p.server(), p.expiresAt()),
                    System.currentTimeMillis());
        } catch (TextParseException e) {
            log.debug("a peer's persistence entry names no wide IP: {}", p.wideIp());
        }
    }

    @Override
    public void forEachLive(Consumer<Persisted> out) {
        table.forEachLive(
                System.currentTimeMillis(),
                e -> out.accept(new Persisted(e.wideIp().toString(), e.hi(), e.lo(), e.server(), e.expiresAt())));
    }
}
