#!/usr/bin/env bash
# A real single-node Kubernetes for the tests: etcd, kube-apiserver,
# kube-controller-manager, kube-scheduler, containerd (runc), kubelet and
# kube-proxy (nftables), from Debian packages and the binaries tests/kube/build.sh
# builds and caches, and kube-router's network policy controller alone (firewall-only,
# scripts/kube-router.sh) so that NetworkPolicy is enforced (k8s/README.md).  Pods get
# 198.18.20.0/24 on a CNI bridge, Services 198.18.21.0/24, the node 198.18.20.250 (the
# API server binds to it).
#
#   cluster.sh up           build or reuse the binaries, start everything, import the images
#   cluster.sh down         stop every process by its recorded PID and undo every host change
#   cluster.sh status       which components run; exit 0 only when all do and the node is Ready
#   cluster.sh host-state   print what the cluster may change on the host (sysctls, links,
#                           routes, chains, tables, mounts, cgroups, paths, processes), to diff
#   cluster.sh import IMAGE...   import podman images into the node's containerd
#
# State in $KUBE_DIR (/var/lib/mm2kit-kube), removed whole by down; the process logs are
# kept in $KUBE_LOGS (build/kube/logs).  Every wait is bounded.
# Exit codes: 0 ok, 2 usage, 3 a tool or the image is missing, 4 something did not come up.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=tests/kube/kube.env
. "$here/kube.env"
: "${KUBE_LOGS:=$root/build/kube/logs}"
: "${IMAGE:=localhost/mm2kit/mm2:dev}"
K=$KUBE_DIR
P=$K/pki
RUN=$K/run
CTR_SOCK=$K/containerd/containerd.sock
# containerd's root (content, snapshots, metadata) is a cache, like the binaries: an image
# imported once is not imported again while podman's image ID is the same.  Its state
# (sockets, tasks, mounts) stays under $K.
CTR_ROOT=$MM2KIT_CACHE/kube-containerd
# The pods' CNI network: libcni's cache files in /var/lib/cni are named after it, and down
# removes them by this name, never by the bed's podman network's (mm2kit-kube, whose IPAM
# state is bed.sh's to remove).
KUBE_CNI_NET=mm2kit-kube-pods
t0=$SECONDS

log() { printf 'kube: [%3ds] %s\n' "$((SECONDS - t0))" "$*" >&2; }
die() { printf 'kube: error: %s\n' "$1" >&2; exit "${2:-4}"; }
kc() { timeout 60 "$KUBE_BIN/kubectl" --kubeconfig "$P/admin.kubeconfig" "$@"; }
ctr_() { timeout 120 ctr -a "$CTR_SOCK" -n k8s.io "$@"; }

# until_ok SECONDS WHAT COMMAND...: retries COMMAND twice a second.
until_ok() {
  local t=$1 what=$2 end
  shift 2
  end=$((SECONDS + t))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $end ] || die "$what not within ${t}s; see $KUBE_LOGS/"
    sleep 0.5
  done
}

# ---- host state: saved before up, put back by down --------------------------------------------
# The kubelet rewrites these at start (its kernel tunables); the CNI bridge turns on forwarding.
SYSCTLS=(vm.overcommit_memory vm.panic_on_oom kernel.panic kernel.panic_on_oops
  kernel.keys.root_maxkeys kernel.keys.root_maxbytes net.ipv4.ip_forward
  net.ipv4.conf.all.forwarding net.ipv4.conf.default.forwarding net.ipv4.conf.all.route_localnet
  net.bridge.bridge-nf-call-iptables net.bridge.bridge-nf-call-ip6tables)

save_host() {
  mkdir -p "$RUN"
  local s
  for s in "${SYSCTLS[@]}"; do
    printf '%s=%s\n' "$s" "$(sysctl -n "$s" 2>/dev/null || echo absent)"
  done >"$RUN/sysctl.saved"
  nft list tables >"$RUN/nft-tables.saved" 2>/dev/null || true
  for c in iptables ip6tables; do
    "$c" -S 2>/dev/null | sed -n 's/^-N //p' >"$RUN/$c-chains.saved" || true
  done
}

restore_sysctls() {
  [ -f "$RUN/sysctl.saved" ] || return 0
  local kv
  while IFS= read -r kv; do
    [ "${kv#*=}" = absent ] || sysctl -qw "$kv" 2>/dev/null || log "could not restore $kv"
  done <"$RUN/sysctl.saved"
}

host_state() {
  local s c t
  echo "## sysctl"
  for s in "${SYSCTLS[@]}"; do printf '%s=%s\n' "$s" "$(sysctl -n "$s" 2>/dev/null || echo absent)"; done
  echo "## links"
  ip -o link show | awk -F': ' '{print $2}' | sed 's/@.*//' | sort
  echo "## addresses"
  ip -o addr show | awk '{print $2, $3, $4}' | sort
  echo "## routes"
  ip route show table all | grep -v '^local \|^broadcast \|^multicast \|fe80::' | sort
  echo "## iptables (rules, no counters)"
  for c in iptables ip6tables; do
    for t in filter nat mangle raw; do
      "$c" -t "$t" -S 2>/dev/null | sed "s/^/$c $t /" | sed 's/ -c [0-9]* [0-9]*//'
    done
  done
  echo "## nft tables"
  nft list tables 2>/dev/null | sort
  echo "## ipsets"
  ipset list -n 2>/dev/null | sort
  echo "## mounts"
  awk '{print $5}' /proc/self/mountinfo | grep -E 'kube|containerd|/run/netns|cni' | sort || true
  echo "## cgroups"
  find /sys/fs/cgroup -maxdepth 3 -type d -name 'kubepods*' 2>/dev/null | sort
  echo "## paths"
  for p in /var/lib/kubelet /var/log/containers /var/log/pods /run/containerd /var/lib/containerd \
    /etc/cni/net.d /opt/cni /etc/kubernetes /run/netns "$K"; do
    [ -e "$p" ] && printf '%s %s\n' "$p" "$(find "$p" -maxdepth 1 | wc -l)"
  done
  find /var/lib/cni -maxdepth 3 -name 'mm2kit-kube*' 2>/dev/null | sort
  echo "## processes"
  for e in /proc/[0-9]*/exe; do
    readlink "$e" 2>/dev/null || true
  done | grep -E "^($KUBE_BIN/|/usr/bin/(etcd|containerd|containerd-shim-runc-v2)$)" | sort | uniq -c || true
}

# ---- configuration ---------------------------------------------------------------------------
gen_pki() {
  mkdir -p "$P"
  (
    cd "$P"
    umask 077
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key -out ca.crt \
      -days 7 -subj "/CN=mm2kit-kube-ca" 2>/dev/null
    # name CN O SANS(empty: a client certificate)
    mk() {
      local subj="/CN=$2" ext
      [ -n "$3" ] && subj="/O=$3/CN=$2"
      openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$1.key" -out "$1.csr" \
        -subj "$subj" 2>/dev/null
      ext=$(mktemp)
      if [ -n "$4" ]; then
        printf 'subjectAltName=%s\nextendedKeyUsage=serverAuth,clientAuth\n' "$4" >"$ext"
      else
        printf 'extendedKeyUsage=clientAuth\n' >"$ext"
      fi
      openssl x509 -req -in "$1.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -out "$1.crt" -days 7 \
        -extfile "$ext" 2>/dev/null
      rm -f "$1.csr" "$ext"
    }
    mk apiserver kube-apiserver "" "IP:$KUBE_NODE_IP,IP:${KUBE_SVC_CIDR%.0/24}.1,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc"
    mk admin mm2kit-kube-admin system:masters ""
    mk kcm system:kube-controller-manager "" ""
    mk sched system:kube-scheduler "" ""
    mk kubelet "system:node:$KUBE_NODE" system:nodes ""
    mk kubelet-server "system:node:$KUBE_NODE" system:nodes "IP:$KUBE_NODE_IP"
    mk apiserver-kubelet-client kube-apiserver-kubelet-client system:masters ""
    mk proxy system:kube-proxy "" ""
    mk netpol system:mm2kit-kube-router "" ""
    openssl genrsa -out sa.key 2048 2>/dev/null
    openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
    for n in admin kcm sched kubelet proxy netpol; do
      cat >"$n.kubeconfig" <<EOK
apiVersion: v1
kind: Config
clusters:
- name: mm2kit-kube
  cluster: {server: "https://$KUBE_NODE_IP:$KUBE_API_PORT", certificate-authority: $P/ca.crt}
users:
- name: $n
  user: {client-certificate: $P/$n.crt, client-key: $P/$n.key}
contexts:
- name: mm2kit-kube
  context: {cluster: mm2kit-kube, user: $n}
current-context: mm2kit-kube
EOK
    done
  )
}

write_configs() {
  mkdir -p "$K/containerd" "$K/cni/net.d" "$K/kubelet" "$K/podlogs" "$RUN"
  cat >"$K/containerd/config.toml" <<EOF
version = 2
root = "$CTR_ROOT"
state = "$K/containerd/state"
[grpc]
  address = "$CTR_SOCK"
[ttrpc]
  address = "$CTR_SOCK.ttrpc"
[debug]
  address = ""
[metrics]
  address = ""
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$KUBE_PAUSE_IMAGE"
  enable_selinux = false
  # No CAP_SYS_RESOURCE here: runc must not raise a container's oom_score_adj.
  restrict_oom_score_adj = true
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        BinaryName = "$(command -v runc)"
        Root = "$K/containerd/runc-root"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$K/cni/net.d"
EOF
  # No default route: pods reach the Service range and the test range (the bed's brokers), nothing else.
  cat >"$K/cni/net.d/10-mm2kit-kube.conflist" <<EOF
{
  "cniVersion": "0.4.0",
  "name": "$KUBE_CNI_NET",
  "plugins": [
    {
      "type": "bridge",
      "bridge": "$KUBE_POD_BRIDGE",
      "isGateway": true,
      "ipMasq": false,
      "hairpinMode": true,
      "ipam": {
        "type": "host-local",
        "dataDir": "$K/cni/ipam",
        "ranges": [[{"subnet": "$KUBE_POD_CIDR", "rangeStart": "${KUBE_POD_CIDR%.0/24}.10",
                     "rangeEnd": "${KUBE_POD_CIDR%.0/24}.200", "gateway": "$KUBE_POD_GW"}]],
        "routes": [{"dst": "$KUBE_SVC_CIDR"}, {"dst": "198.18.0.0/15"}]
      }
    },
    {"type": "loopback"}
  ]
}
EOF
  printf 'nameserver 127.0.0.1\n' >"$RUN/resolv.conf"
  cat >"$RUN/kubelet.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: $KUBE_NODE_IP
port: 10250
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: 10248
tlsCertFile: $P/kubelet-server.crt
tlsPrivateKeyFile: $P/kubelet-server.key
cgroupDriver: cgroupfs
containerRuntimeEndpoint: unix://$CTR_SOCK
failSwapOn: false
failCgroupV1: false
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: $P/ca.crt}
authorization: {mode: Webhook}
clusterDomain: cluster.local
resolvConf: $RUN/resolv.conf
podLogsDir: $K/podlogs
# No registry can give an imported image back: never garbage-collect one.
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard: {memory.available: "100Mi"}
# The whole machine is shared; the test workloads are small.
maxPods: 30
serializeImagePulls: false
EOF
  cat >"$RUN/proxy.yaml" <<EOF
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
mode: nftables
clientConnection: {kubeconfig: $P/proxy.kubeconfig}
clusterCIDR: $KUBE_POD_CIDR
healthzBindAddress: 127.0.0.1:10256
metricsBindAddress: 127.0.0.1:10249
nodePortAddresses: ["$KUBE_NODE_IP/32"]
# Leave the host's conntrack settings alone.
conntrack: {maxPerCore: 0, min: 0, tcpEstablishedTimeout: 0s, tcpCloseWaitTimeout: 0s, udpTimeout: 0s, udpStreamTimeout: 0s}
EOF
}

# start NAME COMMAND...: in the background, niced, its PID recorded, its log in KUBE_LOGS.
start() {
  local n=$1
  shift
  nohup nice -n 5 "$@" >"$KUBE_LOGS/$n.log" 2>&1 </dev/null &
  printf '%s %s\n' "$!" "$(proc_start "$!")" >"$RUN/$n.pid"
}

# The PID's start time (field 22 of /proc/PID/stat, the command name skipped as it may hold
# spaces): recorded beside the PID, since PIDs wrap at kernel.pid_max (32768 here) and a
# stale PID file could otherwise name, and kill, another process.
proc_start() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f20; }
# pid_of NAME: the PID recorded for NAME, printed only while that process is still the one started.
pid_of() {
  local p t
  { read -r p t <"$RUN/$1.pid"; } 2>/dev/null || return 1
  [ -n "$p" ] && [ -n "$t" ] && [ "$(proc_start "$p")" = "$t" ] && printf '%s\n' "$p"
}
pid_alive() { pid_of "$1" >/dev/null; }

crds_established() {
  local c
  for c in servicemonitors prometheusrules; do
    [ "$(kc get crd "$c.monitoring.coreos.com" -o jsonpath='{.status.conditions[?(@.type=="Established")].status}')" = True ] || return 1
  done
}

ready_node() { [ "$(kc get node "$KUBE_NODE" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}')" = True ]; }

# ---- images -----------------------------------------------------------------------------------
# Made again when pause.c or this function changes: the image carries what it was built from
# (label mm2kit.source), and an image of the same name from another source is replaced.
pause_image() {
  local w c src
  src=$({ cat "$here/pause.c"; declare -f pause_image; } | sha256sum | cut -c1-16)
  [ "$(timeout 60 podman image inspect -f '{{index .Labels "mm2kit.source"}}' "$KUBE_PAUSE_IMAGE" 2>/dev/null)" != "$src" ] || return 0
  w=$(mktemp -d)
  cc -static -O2 -Wall -Wextra -Werror -o "$w/pause" "$here/pause.c" || die "building the pause program failed"
  c=$(timeout 60 buildah from --name mm2kit-kube-pause scratch)
  timeout 60 buildah copy "$c" "$w/pause" /pause >/dev/null
  timeout 60 buildah config --entrypoint '["/pause"]' --cmd '' --user 65535:65535 --label mm2kit.source="$src" "$c"
  timeout 120 buildah commit -q "$c" "$KUBE_PAUSE_IMAGE" >/dev/null
  timeout 60 buildah rm "$c" >/dev/null
  rm -rf "$w"
}

# image_id IMAGE: the config digest containerd holds for IMAGE (podman's image ID), or nothing.
ctr_image_id() {
  local m
  m=$(ctr_ images ls "name==$1" 2>/dev/null | awk 'NR == 2 {print $3}')
  [ -n "$m" ] || return 0
  ctr_ content get "$m" 2>/dev/null | jq -r '.config.digest // empty' 2>/dev/null || true
}

import() { # IMAGE...: podman's image into the node's containerd, name kept (streamed: no file)
  local i want
  for i in "$@"; do
    timeout 60 podman image exists "$i" || die "image $i not found in podman; run make image" 3
    want=sha256:$(timeout 60 podman image inspect -f '{{.Id}}' "$i")
    if [ "$(ctr_image_id "$i")" = "$want" ]; then
      log "image $i already in containerd's cache ($CTR_ROOT)"
      continue
    fi
    timeout 300 podman save -q --format docker-archive "$i" | ctr_ images import - >/dev/null ||
      die "podman save $i | ctr images import failed"
    [ "$(ctr_image_id "$i")" = "$want" ] || die "containerd holds $i as $(ctr_image_id "$i"), podman as $want"
  done
}

# ---- up ---------------------------------------------------------------------------------------
up() {
  local t
  for t in etcd containerd ctr runc nft iptables iptables-save iptables-restore ipset openssl cc buildah podman jq curl; do
    command -v "$t" >/dev/null || die "$t is not installed; run make deps" 3
  done
  [ "$(id -u)" = 0 ] || die "the test cluster needs root" 3
  timeout 60 podman image exists "$IMAGE" || die "image $IMAGE not found; run make image" 3
  down_quiet
  "$here/build.sh" >/dev/null
  netpol_bin=$("$root/scripts/kube-router.sh") || die "building kube-router failed (scripts/kube-router.sh)"
  mkdir -p "$KUBE_LOGS" "$RUN"
  rm -f "$KUBE_LOGS"/*.log
  save_host
  gen_pki
  write_configs
  # The node IP on a bridge of its own (the kubelet refuses a loopback node IP).
  ip link add "$KUBE_NODE_BRIDGE" type bridge
  ip addr add "$KUBE_NODE_IP/32" dev "$KUBE_NODE_BRIDGE"
  ip link set "$KUBE_NODE_BRIDGE" up
  # Pods reach the bed's brokers through the host.
  sysctl -qw net.ipv4.ip_forward=1

  # containerd and the images (about 15 s: the image is half a gigabyte) while the control
  # plane starts; the kubelet needs both.
  start containerd containerd --config "$K/containerd/config.toml"
  (
    until_ok 60 "containerd" ctr -a "$CTR_SOCK" version
    # A crashed run's containers in the cached metadata: gone before the kubelet starts.
    local c
    for c in $(ctr_ containers ls -q 2>/dev/null); do ctr_ containers delete "$c" >/dev/null 2>&1 || true; done
    pause_image
    import "$KUBE_PAUSE_IMAGE" "$IMAGE"
    log "containerd up, images imported: $KUBE_PAUSE_IMAGE $IMAGE"
  ) &
  local images=$!
  start etcd etcd --name mm2kit-kube --data-dir "$K/etcd" \
    --listen-client-urls "http://127.0.0.1:$KUBE_ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$KUBE_ETCD_PORT" \
    --listen-peer-urls http://127.0.0.1:12380 --initial-advertise-peer-urls http://127.0.0.1:12380 \
    --initial-cluster mm2kit-kube=http://127.0.0.1:12380
  until_ok 60 "etcd healthy" curl -sf -m 2 "http://127.0.0.1:$KUBE_ETCD_PORT/health"
  log "etcd healthy"
  start apiserver "$KUBE_BIN/kube-apiserver" --etcd-servers="http://127.0.0.1:$KUBE_ETCD_PORT" \
    --bind-address="$KUBE_NODE_IP" --advertise-address="$KUBE_NODE_IP" --secure-port="$KUBE_API_PORT" \
    --tls-cert-file="$P/apiserver.crt" --tls-private-key-file="$P/apiserver.key" --client-ca-file="$P/ca.crt" \
    --service-account-key-file="$P/sa.pub" --service-account-signing-key-file="$P/sa.key" \
    --service-account-issuer=https://kubernetes.default.svc.cluster.local \
    --service-cluster-ip-range="$KUBE_SVC_CIDR" --authorization-mode=Node,RBAC \
    --enable-admission-plugins=NodeRestriction \
    --kubelet-client-certificate="$P/apiserver-kubelet-client.crt" --kubelet-client-key="$P/apiserver-kubelet-client.key" \
    --kubelet-certificate-authority="$P/ca.crt" --kubelet-preferred-address-types=InternalIP \
    --allow-privileged=false --profiling=false --event-ttl=2h
  until_ok 120 "kube-apiserver /readyz" kc get --raw /readyz
  log "kube-apiserver ready on https://$KUBE_NODE_IP:$KUBE_API_PORT"
  start kcm "$KUBE_BIN/kube-controller-manager" --kubeconfig="$P/kcm.kubeconfig" \
    --authentication-kubeconfig="$P/kcm.kubeconfig" --authorization-kubeconfig="$P/kcm.kubeconfig" \
    --bind-address=127.0.0.1 --leader-elect=false --service-account-private-key-file="$P/sa.key" \
    --root-ca-file="$P/ca.crt" --cluster-signing-cert-file="$P/ca.crt" --cluster-signing-key-file="$P/ca.key" \
    --use-service-account-credentials=true --service-cluster-ip-range="$KUBE_SVC_CIDR" --profiling=false
  start sched "$KUBE_BIN/kube-scheduler" --kubeconfig="$P/sched.kubeconfig" \
    --authentication-kubeconfig="$P/sched.kubeconfig" --authorization-kubeconfig="$P/sched.kubeconfig" \
    --bind-address=127.0.0.1 --leader-elect=false --profiling=false
  # The monitoring CRDs the manifests use (tests/k8s/crds.sh), while the images import.
  kc apply --server-side -f "$("$root/tests/k8s/crds.sh")" >/dev/null
  wait "$images" || die "containerd or the image import failed; see $KUBE_LOGS/containerd.log"
  start kubelet "$KUBE_BIN/kubelet" --config="$RUN/kubelet.yaml" --kubeconfig="$P/kubelet.kubeconfig" \
    --root-dir="$K/kubelet" --cert-dir="$K/kubelet/pki" --hostname-override="$KUBE_NODE" --node-ip="$KUBE_NODE_IP"
  until_ok 120 "node $KUBE_NODE Ready" ready_node
  # The kubelet sets its kernel tunables once at start: put the host's values back.
  restore_sysctls
  sysctl -qw net.ipv4.ip_forward=1
  log "node $KUBE_NODE Ready"
  start proxy "$KUBE_BIN/kube-proxy" --config="$RUN/proxy.yaml" --hostname-override="$KUBE_NODE"
  start_netpol
  until_ok 60 "kube-proxy healthz" curl -sf -m 2 http://127.0.0.1:10256/healthz
  until_ok 90 "kube-router's network policy chains" netpol_ready
  log "kube-router enforcing NetworkPolicy (firewall only)"
  until_ok 60 "the default ServiceAccount" kc get serviceaccount default
  # (kubectl wait fails outright on a CRD the API has not given a status yet: poll instead.)
  until_ok 60 "the monitoring CRDs Established" crds_established
  log "cluster up: kubectl --kubeconfig $P/admin.kubeconfig (KUBECONFIG in tests/kube/kube.env)"
}

# ---- NetworkPolicy: kube-router's policy controller alone ---------------------------------------
# What it reads, cluster-wide (docs/netpol-notes.md): its informers list and watch these seven
# whatever the mode, and it gets its Node.  It writes nothing to the API.
netpol_rbac() {
  kc apply --server-side --field-manager=mm2kit-kube -f - >/dev/null <<'EOF'
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: "mm2kit:kube-router-netpol"}
rules:
  - apiGroups: [""]
    resources: [services, endpoints, pods, nodes, namespaces]
    verbs: [list, watch]
  - apiGroups: [""]
    resources: [nodes]
    verbs: [get]
  - apiGroups: [discovery.k8s.io]
    resources: [endpointslices]
    verbs: [list, watch]
  - apiGroups: [networking.k8s.io]
    resources: [networkpolicies]
    verbs: [list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: "mm2kit:kube-router-netpol"}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "mm2kit:kube-router-netpol"}
subjects:
  - {apiGroup: rbac.authorization.k8s.io, kind: User, name: "system:mm2kit-kube-router"}
EOF
}

# Firewall only: no routing, no service proxy (kube-proxy stays), no health or metrics port
# (both would bind every address).  The node by NODE_NAME: it is not this machine's host name.
start_netpol() {
  netpol_rbac
  NODE_NAME=$KUBE_NODE start netpol "$netpol_bin" --run-firewall=true --run-router=false \
    --run-service-proxy=false --run-loadbalancer=false --kubeconfig="$P/netpol.kubeconfig" \
    --service-cluster-ip-range="$KUBE_SVC_CIDR" --health-port=0 --metrics-port=0 --enable-ipv6=false
}

netpol_ready() { pid_alive netpol && iptables -S KUBE-ROUTER-FORWARD >/dev/null 2>&1; }

# kube-router's chains by name: KUBE-ROUTER-*, KUBE-NWPLCY-*, KUBE-POD-FW-* (hashes hold digits,
# which the KUBE-[A-Z-]* sweep in down would miss).
netpol_chains() { "$1" -S 2>/dev/null | sed -n 's/^-N \(KUBE-\(ROUTER\|NWPLCY\|POD-FW\)-[A-Z0-9-]*\)$/\1/p'; }

# kube-router's jumps, chains and ipsets: it has no cleanup that works in this mode
# (docs/netpol-notes.md).  Jumps by rule number, highest first; chains flushed before any is
# deleted (they jump to each other); the sets last, once no rule names them.
netpol_clean() {
  local ipt ch n
  for ipt in iptables ip6tables; do
    for ch in INPUT FORWARD OUTPUT; do
      for n in $("$ipt" -n -L "$ch" --line-numbers 2>/dev/null | awk '$2 ~ /^KUBE-ROUTER-/ {print $1}' | sort -rn); do
        "$ipt" -D "$ch" "$n" 2>/dev/null || true
      done
    done
    for ch in $(netpol_chains "$ipt"); do "$ipt" -F "$ch" 2>/dev/null || true; done
    for ch in $(netpol_chains "$ipt"); do "$ipt" -X "$ch" 2>/dev/null || true; done
  done
  command -v ipset >/dev/null || return 0
  for ch in $(ipset list -n 2>/dev/null | grep -E '^(inet6:)?KUBE-(SRC|DST)-' || true); do
    ipset destroy "$ch" 2>/dev/null || true
  done
}

# ---- down -------------------------------------------------------------------------------------
stop() { # NAME...: SIGTERM to each by recorded PID at once, then SIGKILL to any alive after 30 s
  local n p i pids=()
  for n in "$@"; do
    [ -f "$RUN/$n.pid" ] || continue
    p=$(pid_of "$n") && kill "$p" 2>/dev/null && pids+=("$n:$p")
    rm -f "$RUN/$n.pid"
  done
  for i in $(seq 60); do
    local alive=0
    for p in "${pids[@]}"; do kill -0 "${p#*:}" 2>/dev/null && alive=1; done
    [ "$alive" = 1 ] || return 0
    sleep 0.5
  done
  for p in "${pids[@]}"; do
    kill -0 "${p#*:}" 2>/dev/null && { log "${p%%:*} (${p#*:}) ignored SIGTERM for 30 s: SIGKILL"; kill -9 "${p#*:}" 2>/dev/null || true; }
  done
  return 0
}

# The shims of this cluster's containerd (they outlive it), found by the socket they serve.
our_shims() {
  local pid
  for pid in $(pgrep -x containerd-shim 2>/dev/null; pgrep -f '^/usr/bin/containerd-shim-runc-v2 ' 2>/dev/null); do
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "-address $CTR_SOCK " && echo "$pid"
  done
  return 0
}

down() {
  [ -d "$K" ] || return 0
  mkdir -p "$KUBE_LOGS"
  log "down: stopping the pods"
  if pid_alive apiserver && pid_alive kubelet; then
    # Graceful pod stops first, bounded: the controllers stopped (no replacement starts),
    # every pod deleted (the workers leave their group while the brokers still answer).
    stop kcm
    timeout 100 "$KUBE_BIN/kubectl" --kubeconfig "$P/admin.kubeconfig" delete pods --all --all-namespaces \
      --wait=true --timeout=90s >/dev/null 2>&1 || true
  fi
  stop netpol proxy kubelet
  netpol_clean
  # What the kubelet left running: every task killed, every container removed.
  if pid_alive containerd; then
    local t c
    for t in $(ctr_ tasks ls -q 2>/dev/null); do ctr_ tasks kill -s SIGKILL "$t" >/dev/null 2>&1 || true; done
    for t in $(seq 20); do [ -z "$(ctr_ tasks ls -q 2>/dev/null)" ] && break; sleep 0.5; done
    for c in $(ctr_ containers ls -q 2>/dev/null); do
      ctr_ tasks delete -f "$c" >/dev/null 2>&1 || true
      ctr_ containers delete "$c" >/dev/null 2>&1 || true
    done
  fi
  log "down: stopping containerd and the control plane"
  stop containerd kcm sched apiserver etcd
  local s
  for s in $(our_shims); do kill "$s" 2>/dev/null || true; done
  for s in $(seq 20); do [ -z "$(our_shims)" ] && break; sleep 0.5; done
  for s in $(our_shims); do kill -9 "$s" 2>/dev/null || true; done
  log "down: undoing the host changes"
  # The pods' network namespaces and every mount under the state folder or containerd's root.
  local m
  awk -v k="$K/" -v r="$CTR_ROOT/" 'index($5, k) == 1 || index($5, r) == 1 || $5 ~ /^\/run\/(containerd|netns\/cni-)/ {print $5}' /proc/self/mountinfo |
    sort -r | while IFS= read -r m; do umount -l "$m" 2>/dev/null || true; done
  # kubepods cgroups, leaves first (empty once every process is gone).
  local h
  for h in /sys/fs/cgroup/*/kubepods /sys/fs/cgroup/kubepods; do
    [ -d "$h" ] && find "$h" -depth -type d -exec rmdir {} \; 2>/dev/null
  done
  ip link del "$KUBE_POD_BRIDGE" 2>/dev/null || true
  ip link del "$KUBE_NODE_BRIDGE" 2>/dev/null || true
  # kube-proxy's nftables tables; the chains the kubelet adds with iptables.
  nft delete table ip kube-proxy 2>/dev/null || true
  nft delete table ip6 kube-proxy 2>/dev/null || true
  local ipt ch tb
  for ipt in iptables ip6tables; do
    "$ipt" -D INPUT -j KUBE-FIREWALL 2>/dev/null || true
    "$ipt" -D OUTPUT -j KUBE-FIREWALL 2>/dev/null || true
    for tb in filter nat mangle; do
      for ch in $("$ipt" -t "$tb" -S 2>/dev/null | sed -n 's/^-N \(KUBE-[A-Z-]*\)$/\1/p'); do
        grep -qx "$ch" "$RUN/$ipt-chains.saved" 2>/dev/null && continue
        "$ipt" -t "$tb" -F "$ch" 2>/dev/null || true
        "$ipt" -t "$tb" -X "$ch" 2>/dev/null || true
      done
    done
  done
  # Empty tables that the kubelet's iptables calls created (nft backend), and only those.
  if [ -f "$RUN/nft-tables.saved" ]; then
    nft list tables 2>/dev/null | while read -r _ fam tab; do
      grep -qx "table $fam $tab" "$RUN/nft-tables.saved" && continue
      nft list table "$fam" "$tab" 2>/dev/null | grep -q 'chain' || nft delete table "$fam" "$tab" 2>/dev/null || true
    done
  fi
  restore_sysctls
  # Paths the kubelet and containerd use whatever their configured roots.
  rm -rf /var/lib/kubelet /var/log/containers /var/log/pods /run/containerd
  find /var/lib/cni -maxdepth 3 -name "$KUBE_CNI_NET*" -exec rm -rf {} + 2>/dev/null || true
  rm -rf "$K"
}

down_quiet() {
  [ -d "$K" ] || return 0
  log "removing the leftovers of an earlier cluster in $K"
  down
}

status() {
  local n rc=0
  for n in etcd apiserver kcm sched containerd kubelet proxy netpol; do
    if pid_alive "$n"; then printf '%-11s running (pid %s)\n' "$n" "$(pid_of "$n")"; else printf '%-11s stopped\n' "$n"; rc=1; fi
  done
  if [ "$rc" = 0 ] && ready_node; then echo "node $KUBE_NODE Ready"; else echo "node $KUBE_NODE not Ready"; rc=1; fi
  return "$rc"
}

case "${1:-}" in
  up) up ;;
  down) down; log "down: every process stopped, the host restored" ;;
  status) status ;;
  host-state) host_state ;;
  import) shift; import "$@" ;;
  *) printf 'usage: cluster.sh up | down | status | host-state | import IMAGE...\n' >&2; exit 2 ;;
esac
