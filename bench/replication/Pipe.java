// bench/replication's baseline copier and its two readers, with Kafka's own Java clients (the
// image's jars, the same as MirrorSourceConnector's), compiled by run.sh with the host's javac.
//
//   Pipe copy SRC_PROPS TGT_PROPS FROM TO COUNT THREADS [WARM_TO [WARM_FROM WARM_COUNT]]
//       Copies COUNT records of topic FROM (from the beginning) into topic TO, partition for
//       partition, with their timestamps, keys, values and headers, as MirrorSourceTask does.
//       THREADS copiers like tasks: each its own consumer (assigned every THREADS-th partition)
//       and its own producer, consuming and producing at the same time.  Prints one JSON line.
//       WARM_TO: the same copy into that topic first, untimed, so that the copy to TO runs
//       compiled, as a worker's tasks do after their first minute; WARM_FROM and WARM_COUNT:
//       that warm copy reads WARM_COUNT records of WARM_FROM instead (FROM may still be empty).
//   Pipe latency SRC_PROPS TGT_PROPS FROM TO [SKIP_MS]
//       Reads both topics to their ends and pairs the records offset for offset (fresh topics,
//       nothing lost or repeated: a partition whose counts differ is an error); prints the
//       target's LogAppendTime minus the source's, p50/p99/max in ms, as one JSON line.
//       SKIP_MS: leaves out the records appended to the source within that many ms of its
//       first (a copier's first seconds, before its code is compiled).
//   Pipe lag SRC_PROPS TGT_PROPS FROM TO INTERVAL_MS SECONDS
//       Every INTERVAL_MS, the sum of FROM's end offsets and of TO's, then each partition's
//       lag (FROM's end minus TO's, partition for partition), one line each:
//       "EPOCH_MS SOURCE_END TARGET_END LAG_0 ... LAG_N", for SECONDS seconds.
//
// Figures, not a test.  Exit codes: 0 done, 2 usage, 4 a Kafka call failed or the data differ.
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

public final class Pipe {
    private static final Duration POLL = Duration.ofMillis(100);

    private Pipe() {}

    public static void main(String[] args) throws Exception {
        try {
            if ((args.length == 7 || args.length == 8 || args.length == 10) && args[0].equals("copy")) {
                if (args.length >= 8) {
                    copy(load(args[1]), load(args[2]), args.length == 10 ? args[8] : args[3], args[7],
                            Long.parseLong(args.length == 10 ? args[9] : args[5]), Integer.parseInt(args[6]), false);
                }
                copy(load(args[1]), load(args[2]), args[3], args[4], Long.parseLong(args[5]), Integer.parseInt(args[6]),
                        true);
            } else if ((args.length == 5 || args.length == 6) && args[0].equals("latency")) {
                latency(load(args[1]), load(args[2]), args[3], args[4], args.length == 6 ? Long.parseLong(args[5]) : 0);
            } else if (args.length == 7 && args[0].equals("lag")) {
                lag(load(args[1]), load(args[2]), args[3], args[4], Long.parseLong(args[5]), Long.parseLong(args[6]));
            } else {
                System.err.println("usage: Pipe copy|latency|lag ... (see the head of bench/replication/Pipe.java)");
                System.exit(2);
            }
        } catch (NumberFormatException e) {
            System.err.println("Pipe: not a number: " + e.getMessage());
            System.exit(2);
        } catch (RuntimeException | IOException e) {
            System.err.println("Pipe: " + e);
            System.exit(4);
        }
    }

    private static Properties load(String path) throws IOException {
        Properties p = new Properties();
        try (InputStream in = new FileInputStream(path)) {
            p.load(in);
        }
        return p;
    }

    // A source consumer as MirrorSourceTask makes one (MirrorSourceConfig: no group, no auto
    // commit; the bench's connector reads from the earliest offset, read_committed).
    private static KafkaConsumer<byte[], byte[]> consumer(Properties base) {
        Properties p = new Properties();
        p.putAll(base);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "bench-pipe");
        return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static List<TopicPartition> partitions(KafkaConsumer<?, ?> c, String topic) {
        List<PartitionInfo> info = c.partitionsFor(topic, Duration.ofSeconds(60));
        if (info == null || info.isEmpty()) {
            throw new IllegalStateException("topic " + topic + " has no partitions (does it exist?)");
        }
        List<TopicPartition> out = new ArrayList<>();
        for (PartitionInfo i : info) {
            out.add(new TopicPartition(topic, i.partition()));
        }
        out.sort((a, b) -> Integer.compare(a.partition(), b.partition()));
        return out;
    }

    private static void copy(Properties src, Properties tgt, String from, String to, long count, int threads,
                             boolean print) throws InterruptedException {
        List<TopicPartition> all;
        try (KafkaConsumer<byte[], byte[]> c = consumer(src)) {
            all = partitions(c, from);
        }
        AtomicLong polled = new AtomicLong();
        AtomicLong acked = new AtomicLong();
        AtomicReference<Exception> failed = new AtomicReference<>();
        long start = System.nanoTime();
        long cpu0 = cpuNanos();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            List<TopicPartition> mine = new ArrayList<>();
            for (int i = t; i < all.size(); i += threads) {
                mine.add(all.get(i));
            }
            if (mine.isEmpty()) {
                continue;
            }
            Thread w = new Thread(() -> copier(src, tgt, mine, to, count, polled, acked, failed), "pipe-" + t);
            workers.add(w);
            w.start();
        }
        for (Thread w : workers) {
            w.join();
        }
        double s = (System.nanoTime() - start) / 1e9;
        if (failed.get() != null) {
            throw new IllegalStateException("a copier failed: " + failed.get());
        }
        // The JVM's CPU time during this copy, as the worker's is read from its cgroup: every
        // thread, GC included.
        double cpu = (cpuNanos() - cpu0) / 1e9;
        if (!print) {
            return;
        }
        System.out.printf("{\"records\": %d, \"seconds\": %.3f, \"threads\": %d, \"cpu_seconds\": %.3f}%n",
                acked.get(), s, workers.size(), cpu);
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    // One task's worth: poll, send each record as it comes (the producer batches), until the
    // pipe as a whole has acknowledged COUNT records.
    private static void copier(Properties src, Properties tgt, List<TopicPartition> mine, String to, long count,
                               AtomicLong polled, AtomicLong acked, AtomicReference<Exception> failed) {
        try (KafkaConsumer<byte[], byte[]> c = consumer(src);
             KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(producerProps(tgt), new ByteArraySerializer(),
                     new ByteArraySerializer())) {
            c.assign(mine);
            c.seekToBeginning(mine);
            // Once the pipe as a whole has polled COUNT, nothing is left to read: this copier
            // waits for its own sends (flush) and ends, rather than spinning until all are acked.
            while (polled.get() < count && failed.get() == null) {
                ConsumerRecords<byte[], byte[]> recs = c.poll(POLL);
                for (ConsumerRecord<byte[], byte[]> r : recs) {
                    polled.incrementAndGet();
                    p.send(new ProducerRecord<>(to, r.partition(), r.timestamp(), r.key(), r.value(), r.headers()),
                            (md, e) -> {
                                if (e != null) {
                                    failed.compareAndSet(null, e);
                                } else {
                                    acked.incrementAndGet();
                                }
                            });
                }
            }
            p.flush();
        } catch (RuntimeException e) {
            failed.compareAndSet(null, e);
        }
    }

    private static Properties producerProps(Properties base) {
        Properties p = new Properties();
        p.putAll(base);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "bench-pipe");
        return p;
    }

    // Every record's timestamp of TOPIC, partition by partition, from the beginning to the end
    // offsets read first.
    private static Map<Integer, long[]> timestamps(Properties props, String topic) {
        Map<Integer, long[]> out = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> c = consumer(props)) {
            List<TopicPartition> tps = partitions(c, topic);
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> begin = c.beginningOffsets(tps, Duration.ofSeconds(60));
            Map<TopicPartition, Long> end = c.endOffsets(tps, Duration.ofSeconds(60));
            long left = 0;
            for (TopicPartition tp : tps) {
                long n = end.get(tp) - begin.get(tp);
                if (begin.get(tp) != 0) {
                    throw new IllegalStateException(tp + " does not start at offset 0 (a fresh topic is needed)");
                }
                out.put(tp.partition(), new long[(int) n]);
                left += n;
            }
            long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
            while (left > 0) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(topic + ": " + left + " records not read within 10 minutes");
                }
                for (ConsumerRecord<byte[], byte[]> r : c.poll(POLL)) {
                    TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                    if (r.offset() >= end.get(tp)) {
                        continue;
                    }
                    out.get(r.partition())[(int) r.offset()] = r.timestamp();
                    left--;
                }
            }
        }
        return out;
    }

    private static void latency(Properties src, Properties tgt, String from, String to, long skipMs) {
        Map<Integer, long[]> s = timestamps(src, from);
        Map<Integer, long[]> t = timestamps(tgt, to);
        if (!s.keySet().equals(t.keySet())) {
            throw new IllegalStateException(from + " and " + to + " differ in partitions");
        }
        long n = 0;
        for (Map.Entry<Integer, long[]> e : s.entrySet()) {
            if (e.getValue().length != t.get(e.getKey()).length) {
                throw new IllegalStateException("partition " + e.getKey() + ": " + e.getValue().length
                        + " records on the source, " + t.get(e.getKey()).length + " on the target");
            }
            n += e.getValue().length;
        }
        long first = Long.MAX_VALUE;
        for (long[] v : s.values()) {
            for (long ts : v) {
                first = Math.min(first, ts);
            }
        }
        long[] d = new long[(int) n];
        int k = 0;
        long negative = 0;
        for (Map.Entry<Integer, long[]> e : s.entrySet()) {
            long[] tt = t.get(e.getKey());
            for (int i = 0; i < tt.length; i++) {
                if (e.getValue()[i] < first + skipMs) {
                    continue;
                }
                d[k] = tt[i] - e.getValue()[i];
                if (d[k] < 0) {
                    negative++;
                }
                k++;
            }
        }
        if (k == 0) {
            throw new IllegalStateException(from + " has no records past the first " + skipMs + " ms");
        }
        d = Arrays.copyOf(d, k);
        n = k;
        Arrays.sort(d);
        double sum = 0;
        for (long v : d) {
            sum += v;
        }
        System.out.printf("{\"records\": %d, \"p50_ms\": %d, \"p99_ms\": %d, \"max_ms\": %d, \"mean_ms\": %.1f, "
                + "\"negative\": %d}%n", n, rank(d, 0.50), rank(d, 0.99), d[d.length - 1], sum / n, negative);
    }

    // Nearest rank: the smallest value with at least Q of the values at or below it.
    private static long rank(long[] sorted, double q) {
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    private static void lag(Properties src, Properties tgt, String from, String to, long intervalMs, long seconds)
            throws InterruptedException {
        try (KafkaConsumer<byte[], byte[]> s = consumer(src); KafkaConsumer<byte[], byte[]> t = consumer(tgt)) {
            List<TopicPartition> sp = partitions(s, from);
            List<TopicPartition> tp = partitions(t, to);
            long start = System.nanoTime();
            long end = start + seconds * 1_000_000_000L;
            while (System.nanoTime() < end) {
                long at = System.currentTimeMillis();
                Map<TopicPartition, Long> se = s.endOffsets(sp, Duration.ofSeconds(30));
                Map<TopicPartition, Long> te = t.endOffsets(tp, Duration.ofSeconds(30));
                StringBuilder line = new StringBuilder();
                line.append(at).append(' ').append(sum(se)).append(' ').append(sum(te));
                for (int i = 0; i < sp.size() && i < tp.size(); i++) {
                    line.append(' ').append(se.getOrDefault(sp.get(i), 0L) - te.getOrDefault(tp.get(i), 0L));
                }
                System.out.println(line);
                System.out.flush();
                Thread.sleep(intervalMs);
            }
        }
    }

    private static long sum(Map<TopicPartition, Long> m) {
        long n = 0;
        for (long v : m.values()) {
            n += v;
        }
        return n;
    }
}
