#!/usr/bin/env bash
# tls-certs.sh DIR SOURCE_IP TARGET_IP [WORKER_IP...]: a throwaway PKI for the TLS bed, made
# afresh each run with openssl (nothing of it is committed):
#   ca.crt ca.key            the bed's CA (signs everything below)
#   other-ca.crt             an unrelated CA: trusting it instead is "a wrong CA"
#   source.pem target.pem    broker keystores (PKCS#8 key + certificate, SAN = the broker's IP)
#   wronghost.pem            a broker keystore whose SAN names another address
#   client.pem               mTLS client keystores for Kafka (encrypted key + certificate),
#   client-source.pem        one per principal: client (CN=connect) the workers' own,
#   client-target.pem        client-source and client-target the connector's and
#   admin.pem                mm2-offsets', admin the bed's set-up
#   client.crt client.key    each pair also as librdkafka reads it (key encrypted too;
#                            client-source.crt, client-target.key, ...)
#   expired.crt expired.key  a client certificate whose validity ended in 2020
#   rest.p12                 the Connect REST listener's keystore (PKCS12; SAN: localhost,
#                            127.0.0.1, mm2-connect and each WORKER_IP, as per-pod
#                            certificates would carry the pod IP: docker/mm2/README.md)
#   rest-trust.p12           a PKCS12 truststore holding ca.crt (Jetty reads no PEM)
# Key and store passwords come from the environment (BED_TLS_KEY_PASSWORD,
# BED_TLS_STORE_PASSWORD), never from argv, so they show in no process list.
# Everything is 0644 (read by containers running as 10001), the directory 0755.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: tls-certs.sh DIR SOURCE_IP TARGET_IP [WORKER_IP...]" >&2; exit 2; }
dir=$1 src_ip=$2 tgt_ip=$3
shift 3
worker_sans=""
for ip in "$@"; do worker_sans+=",IP:$ip"; done
: "${BED_TLS_KEY_PASSWORD:?}" "${BED_TLS_STORE_PASSWORD:?}"
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

newkey() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }

ca() { # name subject
  newkey "$work/$1.key"
  openssl req -x509 -new -key "$work/$1.key" -sha256 -days 2 -subj "$2" \
    -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign \
    -out "$1.crt" 2>/dev/null
}

# sign NAME SUBJECT SAN EKU [DAYS]: NAME.key (PKCS#8, clear) and NAME.crt signed by the CA.
sign() {
  newkey "$work/$1.key"
  openssl req -new -key "$work/$1.key" -subj "$2" -out "$work/$1.csr" 2>/dev/null
  printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=%s\n%s\n' \
    "$4" "${3:+subjectAltName=$3}" >"$work/$1.ext"
  openssl x509 -req -in "$work/$1.csr" -CA ca.crt -CAkey "$work/ca.key" -CAcreateserial \
    -CAserial "$work/ca.srl" -sha256 -days "${5:-2}" -extfile "$work/$1.ext" -out "$1.crt" 2>/dev/null
}

ca ca "/CN=mm2kit TLS bed CA"
ca other-ca "/CN=mm2kit TLS bed unrelated CA"
cp "$work/ca.key" ca.key

for b in source:"$src_ip" target:"$tgt_ip" wronghost:198.18.13.99; do
  name=${b%%:*} ip=${b#*:}
  sign "$name" "/CN=mm2kit-tls-$name" "IP:$ip" serverAuth
  cat "$work/$name.key" "$name.crt" >"$name.pem"
  rm -f "$name.crt"
done

# The client key is encrypted with PBE-SHA1-3DES: Kafka's PEM loader on Java 17 cannot
# read PBES2 (OpenSSL 3's default for pkcs8 -topk8: "PBES2 SecretKeyFactory not
# available"), and librdkafka reads both.  ssl.key.password comes from the environment.
# One certificate per principal (docs/acls.md; the brokers map CN=NAME to User:NAME):
# client the workers' own, client-source and client-target the connector's and
# mm2-offsets' per cluster, admin the bed's set-up (bedkit over SSL).
for c in client:connect client-source:mm2-source client-target:mm2-target admin:admin; do
  sign "${c%%:*}" "/CN=${c#*:}" "" clientAuth
  openssl pkcs8 -topk8 -v1 PBE-SHA1-3DES -in "$work/${c%%:*}.key" \
    -passout env:BED_TLS_KEY_PASSWORD -out "${c%%:*}.key"
  cat "${c%%:*}.key" "${c%%:*}.crt" >"${c%%:*}.pem"
done

# An expired client certificate: openssl ca sets explicit start and end dates.
newkey "$work/expired.key"
openssl req -new -key "$work/expired.key" -subj "/CN=connect" -out "$work/expired.csr" 2>/dev/null
mkdir -p "$work/db"
: >"$work/db/index"
cat >"$work/ca.cnf" <<CNF
[ca]
default_ca = bed
[bed]
database = $work/db/index
new_certs_dir = $work/db
serial = $work/db/serial
default_md = sha256
policy = any
copy_extensions = none
x509_extensions = client
[any]
commonName = supplied
[client]
basicConstraints = CA:FALSE
extendedKeyUsage = clientAuth
CNF
echo 1000 >"$work/db/serial"
openssl ca -batch -config "$work/ca.cnf" -cert ca.crt -keyfile "$work/ca.key" \
  -startdate 20200101000000Z -enddate 20200102000000Z -in "$work/expired.csr" -out expired.crt \
  -notext 2>/dev/null
openssl pkcs8 -topk8 -v1 PBE-SHA1-3DES -in "$work/expired.key" \
  -passout env:BED_TLS_KEY_PASSWORD -out expired.key

# The REST listener: Jetty loads JKS or PKCS12 only.
sign rest "/CN=mm2-connect" "DNS:localhost,IP:127.0.0.1,DNS:mm2-connect$worker_sans" serverAuth,clientAuth
openssl pkcs12 -export -inkey "$work/rest.key" -in rest.crt -certfile ca.crt -name rest \
  -passout env:BED_TLS_STORE_PASSWORD -out rest.p12
keytool -importcert -noprompt -alias bed-ca -file ca.crt -storetype PKCS12 \
  -keystore rest-trust.p12 -storepass:env BED_TLS_STORE_PASSWORD >/dev/null 2>&1
chmod 0644 ./*
chmod 0755 .
