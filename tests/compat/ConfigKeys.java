// The config keys one Kafka version reads, as its own classes define them, for
// tests/compat/config-keys.sh: "connector KEY" for MirrorSourceConnector's ConfigDef
// (MirrorSourceConnector.config(): MirrorSourceConfig on top of Connect's ConnectorConfig) and a
// source connector's framework keys (SourceConnectorConfig.configDef(): exactly.once.support,
// topic creation, ...); "consumer KEY", "producer KEY", "admin KEY" for the client configs the
// prefixed keys (source.cluster.*, source.consumer.*, ...) are handed to
// (MirrorConnectorConfig.sourceConsumerConfig and its siblings).
// Run in source-file mode with the version's libs/ on the class path:
//   java -cp 'libs/*' tests/compat/ConfigKeys.java
import java.util.Set;
import java.util.TreeSet;

public class ConfigKeys {
    private static void print(String kind, Set<String> names) {
        for (String n : new TreeSet<>(names))
            System.out.println(kind + " " + n);
    }

    public static void main(String[] args) {
        Set<String> connector =
            new TreeSet<>(new org.apache.kafka.connect.mirror.MirrorSourceConnector().config().names());
        connector.addAll(org.apache.kafka.connect.runtime.SourceConnectorConfig.configDef().names());
        print("connector", connector);
        print("consumer", org.apache.kafka.clients.consumer.ConsumerConfig.configNames());
        print("producer", org.apache.kafka.clients.producer.ProducerConfig.configNames());
        print("admin", org.apache.kafka.clients.admin.AdminClientConfig.configNames());
    }
}
