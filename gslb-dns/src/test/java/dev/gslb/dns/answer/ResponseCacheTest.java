package dev.gslb.dns.answer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;

/** The answer cache holds its byte budget under a flood of distinct questions and keeps working while full. */
class ResponseCacheTest {
    private static QueryView question(String name, int type) throws Exception {
        byte[] wire = Message.newQuery(Record.newRecord(Name.fromString(name), type, DClass.IN))
                .toWire();
        QueryView q = new QueryView();
        assertThat(q.read(wire, wire.length, Transport.UDP)).isEqualTo(QueryView.Verdict.ANSWER);
        return q;
    }

    @Test
    void staysWithinItsBudgetAndIsNeverFlushedWhole() throws Exception {
        long budget = 256 << 10;
        ResponseCache cache = new ResponseCache(budget);
        AnswerBody body = AnswerBody.empty(true, 0, 0);
        QueryView hot = question("api.example.com.", 1);
        cache.put(hot, body);
        int sizeOfOne = (int) cache.bytes();
        long peak = 0;
        for (int i = 0; i < 200_000; i++) { // a flood that varies the name and the type
            cache.put(question("n" + i + ".example.com.", 1 + i % 40), body);
            peak = Math.max(peak, cache.bytes());
        }
        System.out.printf(
                "answer cache: budget %d KiB, peak %d KiB, %d KiB held after 200,000 distinct questions%n",
                budget >> 10, peak >> 10, cache.bytes() >> 10);
        assertThat(peak).as("never more than the budget and one entry").isLessThanOrEqualTo(budget + sizeOfOne);
        assertThat(cache.bytes())
                .as("still full of answers: evicted one slot at a time, never flushed whole")
                .isGreaterThan(budget / 2);
        QueryView recent = question("n199999.example.com.", 1 + 199_999 % 40);
        assertThat(cache.get(recent, 0)).as("a recent entry is served").isSameAs(body);
        assertThat(cache.get(question("N199999.EXAMPLE.COM.", 1 + 199_999 % 40), 0))
                .as("whatever the letter case")
                .isSameAs(body);
        assertThat(cache.get(question("n199999.example.com.", 3 + 199_999 % 40), 0))
                .as("another type")
                .isNull();
    }

    @Test
    void largeAnswersAreCountedByTheirBytes() throws Exception {
        long budget = 256 << 10;
        ResponseCache cache = new ResponseCache(budget);
        Message m = Message.newQuery(Record.newRecord(Name.fromString("big.example.com."), 16, DClass.IN));
        for (int i = 0; i < 8; i++) {
            m.addRecord(
                    new org.xbill.DNS.TXTRecord(
                            Name.fromString("big.example.com."), DClass.IN, 60, "y" + i + "z".repeat(240)),
                    org.xbill.DNS.Section.ANSWER);
        }
        AnswerBody big = AnswerBody.render(m, 12 + 17 + 4, false, 0, 0, Long.MAX_VALUE);
        assertThat(big.sections.length).isGreaterThan(1900);
        long peak = 0;
        for (int i = 0; i < 20_000; i++) {
            cache.put(question("b" + i + ".example.com.", 16), big);
            peak = Math.max(peak, cache.bytes());
        }
        System.out.printf("answer cache, 2 KB answers: budget %d KiB, peak %d KiB%n", budget >> 10, peak >> 10);
        assertThat(peak).isLessThanOrEqualTo(budget + big.size() + 128);
        assertThat(cache.bytes()).isGreaterThan(budget / 2);
    }

    /** The negative answers' cache keeps an unsigned one the second time it is put: a flood's names, once each, never. */
    @Test
    void withADoorkeeperANameIsKeptOnlyWhenPutASecondTime() throws Exception {
        ResponseCache cache = new ResponseCache(256 << 10, true);
        AnswerBody body = AnswerBody.empty(true, 3, 0);
        for (int i = 0; i < 100_000; i++) {
            cache.put(question("r" + i + ".example.com.", 1), body);
        }
        assertThat(cache.bytes()).as("names asked once: nothing kept").isZero();
        QueryView typo = question("wwww.example.com.", 1);
        cache.put(typo, body);
        assertThat(cache.get(typo, 0)).as("the first time").isNull();
        cache.put(typo, body);
        assertThat(cache.get(typo, 0)).as("the second time").isSameAs(body);
        assertThat(cache.get(question("wwww.example.com.", 28), 0))
                .as("another type is another question")
                .isNull();
        Name owner = Name.fromString("signed.example.com.");
        Message m = Message.newQuery(Record.newRecord(owner, 1, DClass.IN));
        AnswerBody signed = AnswerBody.render(m, 12 + owner.length() + 4, false, 0, 0, 60_000);
        QueryView once = question("signed.example.com.", 1);
        cache.put(once, signed);
        assertThat(cache.get(once, 0))
                .as("a signed answer is kept at once: its signature was counted against the budget")
                .isSameAs(signed);
    }
}
