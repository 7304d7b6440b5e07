# mm2kit: one plain GNU Makefile (docs/ARCHITECTURE.md §8).
#   make            build the binaries into build/
#   make test       everything CI runs: deps, lint, unit + cli (plain and
#                   ASan+UBSan), the image, the e2e tests on the real bed and
#                   the manifests on a real Kubernetes (kube-e2e)
#   make V=1 ...    show the commands
# CFLAGS/LDFLAGS are yours; the required flags are appended.

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
DESTDIR ?=
VERSION ?= $(shell cat VERSION 2>/dev/null || echo 0.0.0)

CC      ?= cc
# BUILD: where everything built goes (make cold-build uses a folder of its own).
BUILD   ?= build
CFLAGS  ?= -O2 -g
LDFLAGS ?=
# librdkafka is not Debian 12's 2.0.2 (its SCRAM logins fail on Kafka 4.x, librdkafka#4895) but a
# pinned, checksummed release that scripts/librdkafka.sh builds once into the cache; linked
# statically (rdkafka-static), so no binary depends on the cache's path at run time.
# MM2KIT_CACHE is passed to the script and exported, so that a cache given on the command line
# (make MM2KIT_CACHE=/tmp/c) is the one every recipe and script below uses.
MM2KIT_CACHE ?= /var/cache/mm2kit
export MM2KIT_CACHE
RDKAFKA_PREFIX := $(shell MM2KIT_CACHE='$(MM2KIT_CACHE)' scripts/librdkafka.sh --prefix)
RDKAFKA_LIB    := $(RDKAFKA_PREFIX)/lib/librdkafka.a
PKGS    := libcurl libcjson inih libcap rdkafka-static libcrypto
PKG_CONFIG := PKG_CONFIG_PATH='$(RDKAFKA_PREFIX)/lib/pkgconfig$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))' pkg-config
# What pkg-config says is asked once librdkafka is built, never while this Makefile is read: on
# a new machine rdkafka-static.pc does not exist yet, and a pkg-config run then fails as a whole
# (it once left every binary linked with no libraries). The answers go to two files that every
# compile and link depends on; a pkg-config failure stops the build with its own message, and
# the variables below read the files only inside recipes (never use them in a := or an $(eval)
# that is not escaped with $$).
PKG_DIR    = $(BUILD)/pkg
PKG_FILES := $(PKG_DIR)/cflags $(PKG_DIR)/libs
pkg_read   = $(or $(strip $(file <$(PKG_DIR)/$(1))),$(error $(PKG_DIR)/$(1) is empty or missing; run make again, or make clean))
# Their headers are system headers (-isystem): -Wextra is for our code, not theirs (2.8.0's
# rdkafka.h declares a function returning const int).
PKG_CFLAGS = $(patsubst -I%,-isystem%,$(call pkg_read,cflags))
PKG_LIBS   = $(call pkg_read,libs)

REQ_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow -Wformat=2 \
              -Wstrict-prototypes -Wmissing-prototypes -Wno-missing-field-initializers \
              -Ilib -DMM2KIT_VERSION='"$(VERSION)"' -MMD -MP
# Release hardening (docs/ARCHITECTURE.md §8); the sanitizer build turns FORTIFY off.
HARDEN_CFLAGS  := -D_FORTIFY_SOURCE=2 -fstack-protector-strong -fPIE
HARDEN_LDFLAGS := -pie -Wl,-z,relro,-z,now -Wl,--as-needed
SAN_FLAGS      := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all

ifeq ($(V),1)
Q :=
else
Q := @
endif

ifeq ($(SAN),1)
B        := $(BUILD)/san
ALL_CFLAGS  = $(CFLAGS) $(SAN_FLAGS) $(REQ_CFLAGS) $(PKG_CFLAGS)
ALL_LDFLAGS = $(LDFLAGS) $(SAN_FLAGS) -Wl,--as-needed
else
B        := $(BUILD)
ALL_CFLAGS  = $(CFLAGS) $(HARDEN_CFLAGS) $(REQ_CFLAGS) $(PKG_CFLAGS)
ALL_LDFLAGS = $(LDFLAGS) $(HARDEN_LDFLAGS)
endif

LIB_SRC  := $(sort $(wildcard lib/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(B)/%.o)
LIB_A    := $(B)/libmm2kit.a

# One directory per binary; each .c in it belongs to that binary.
BIN_DIRS := entrypoint:mm2-entrypoint probes:mm2-probe jobs:mm2-offsets
define bin_rule
$(2)_SRC := $$(sort $$(wildcard $(1)/*.c))
ifneq ($$($(2)_SRC),)
BINS += $(B)/$(2)
$(B)/$(2): $$($(2)_SRC:%.c=$(B)/%.o) $(LIB_A) $(PKG_FILES)
	@echo "  LD      $$@"
	$(Q)$$(CC) $$(ALL_LDFLAGS) -o $$@ $$(filter %.o %.a,$$^) $$(PKG_LIBS)
endif
endef
$(foreach d,$(BIN_DIRS),$(eval $(call bin_rule,$(word 1,$(subst :, ,$(d))),$(word 2,$(subst :, ,$(d))))))

MAN_PAGES := $(wildcard docs/*.1)
LINT_VENV ?= $(MM2KIT_CACHE)/lint-venv

UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/unit/%)

.PHONY: all bins cold-build config-keys unit cli e2e e2e-short e2e-churn e2e-race lint fmt fmt-check install clean deps test test-fast \
        image bed-smoke rehearsal rehearsal-short rehearsal-kube-short faults faults-short faults-hang san-unit san-cli compat compat-short compat-source bench memcheck k8s-check fuzz \
        alerts-check alerts-e2e alerts-e2e-short kube-e2e kube-e2e-short kube-up kube-down tls-e2e tls-e2e-short preflight-table update-e2e
.DEFAULT_GOAL := all

all: $(BINS)
bins: $(BINS)

# Every object is compiled against the librdkafka headers of the cache (built first).
$(RDKAFKA_LIB): scripts/librdkafka.sh
	$(Q)scripts/librdkafka.sh

# pkg-config's answers, once librdkafka is there (see PKG_DIR above); written whole or not at all.
$(PKG_FILES) &: $(RDKAFKA_LIB) Makefile
	@mkdir -p $(PKG_DIR)
	@echo "  PKGCONF $(PKGS)"
	$(Q)c=$$($(PKG_CONFIG) --cflags $(PKGS)) && l=$$($(PKG_CONFIG) --libs $(PKGS)) || \
	  { echo "pkg-config could not resolve $(PKGS) (message above); make deps installs the system ones, scripts/librdkafka.sh builds rdkafka-static" >&2; exit 1; }; \
	case " $$l " in *"/librdkafka.a "*) ;; *) echo "pkg-config --libs $(PKGS) names no librdkafka.a: $$l" >&2; exit 1 ;; esac; \
	printf '%s\n' "$$c" >$(PKG_DIR)/cflags.tmp && printf '%s\n' "$$l" >$(PKG_DIR)/libs.tmp && \
	mv $(PKG_DIR)/cflags.tmp $(PKG_DIR)/cflags && mv $(PKG_DIR)/libs.tmp $(PKG_DIR)/libs

$(B)/%.o: %.c $(RDKAFKA_LIB) | $(PKG_FILES)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(LIB_A): $(LIB_OBJ)
	@echo "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/tests/unit/%: $(B)/tests/unit/%.o $(LIB_A)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS) -lcmocka

-include $(shell find $(B) -name '*.d' 2>/dev/null)

# ---- tests ---------------------------------------------------------------------------------
unit: $(UNIT_BIN)
	$(Q)tests/run-unit $(UNIT_BIN)

$(B)/tests/fake_launcher: $(B)/tests/cli/fake_launcher.o
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^

$(B)/tests/seal-artifact: $(B)/tests/cli/seal_artifact.o $(LIB_A)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(B)/tests/exit-table: $(B)/tests/cli/exit_table.o $(LIB_A)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(B)/tests/connector-keys: $(B)/tests/cli/connector_keys.o $(LIB_A)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS)

# librdkafka's mock clusters as a SOURCE and a TARGET (tests/cli/fake_kafka.c).
$(B)/tests/fake_kafka: $(B)/tests/cli/fake_kafka.o
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS)

cli: $(BINS) $(B)/tests/fake_launcher $(B)/tests/seal-artifact $(B)/tests/fake_kafka $(B)/tests/exit-table
	$(Q)MM2_BUILD=$(abspath $(B)) tests/run-bats tests/cli

# A new machine's first make, every time (tests/cold-build): the binaries from an empty
# MM2KIT_CACHE into a folder of their own, librdkafka built from the tarball already fetched.
cold-build:
	$(Q)tests/cold-build

san-unit:
	$(Q)$(MAKE) --no-print-directory SAN=1 unit
san-cli:
	$(Q)$(MAKE) --no-print-directory SAN=1 cli

# libFuzzer on mm2-offsets' parsers (tests/fuzz/README.md): each tests/fuzz/fuzz_NAME.c with
# lib/ under ASan+UBSan into $(BUILD)/fuzz/, run FUZZ_SECONDS each on a copy of
# tests/fuzz/corpus/NAME (the committed corpus never grows); any crash, leak or sanitizer
# report fails. A different clang: make fuzz FUZZ_CC=clang-16.
FUZZ_CC      ?= clang-14
FUZZ_SECONDS ?= 20
FUZZ_FLAGS   := -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined \
                -fno-sanitize-recover=all
FUZZ_BIN     := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/fuzz/obj/%.o)

$(BUILD)/fuzz/obj/%.o: %.c $(RDKAFKA_LIB) | $(PKG_FILES)
	@mkdir -p $(dir $@)
	@echo "  FUZZCC  $<"
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) $(REQ_CFLAGS) $(PKG_CFLAGS) -c -o $@ $<

$(FUZZ_BIN): $(BUILD)/fuzz/%: $(BUILD)/fuzz/obj/tests/fuzz/%.o $(FUZZ_LIB_OBJ)
	@echo "  FUZZLD  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $^ $(PKG_LIBS)

fuzz: $(FUZZ_BIN)
	$(Q)tests/run-fuzz $(FUZZ_SECONDS) $(FUZZ_BIN)

$(B)/tests/connect-patch: $(B)/tests/e2e/connect_patch.o $(LIB_A)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS)

# All of tests/e2e on the image's Kafka, but the test of mm2-offsets' refusal of an
# unsupported Connect, which only make compat runs, on such a version (tests/compat/versions).
e2e: image $(B)/tests/connect-patch
	$(Q)MM2_BUILD=$(abspath $(B)) tests/run-bats --filter-tags '!compat-unsupported,!compat-mixed,!race,!acl-table' tests/e2e
# make test's: all of that but the two tests tagged long (34 s of a rebalance and a wrong
# advertised address, which kube-e2e and make compat cover).
e2e-short: image $(B)/tests/connect-patch
	$(Q)MM2_BUILD=$(abspath $(B)) tests/run-bats --filter-tags '!compat-unsupported,!compat-mixed,!race,!acl-table,!long' tests/e2e

# mm2-offsets update, one test per change class (tests/e2e/update.bats: a topic added at Flink's
# offsets, harmless, removed and added back, earliest and latest, an alias carried over, a crash
# and its rerun, drift); make test runs the first.
update-e2e: image $(B)/tests/connect-patch
	$(Q)MM2_BUILD=$(abspath $(B)) tests/run-bats tests/e2e/update.bats

# mm2-offsets preflight against every row of docs/acls.md, each taken away in turn (the cutover's
# logins, and the workers' with preflight --workers in a worker), and its other refusals (a
# config topic of 3 partitions and cleanup.policy=delete, retention too short), and what it
# prevents (tests/e2e/acls.bats: a task FAILED after resume, named by status and mm2-probe):
# make e2e runs one refusal of each kind it checks least (Read on a topic, the isolation level).
preflight-table: image
	$(Q)tests/run-bats --filter-tags acl-table tests/e2e/preflight.bats tests/e2e/acls.bats

# The stale task status made the way Connect makes it, by chance (tests/e2e/offsets_stopped.bats:
# delete and recreate until it shows, RACE_TRIES times at most, default 20): not in make test,
# whose e2e writes the same record on purpose.
e2e-race: image $(B)/tests/connect-patch
	$(Q)MM2_BUILD=$(abspath $(B)) tests/run-bats --filter-tags race tests/e2e/offsets_stopped.bats

# The 409-under-churn test alone: it depends on chance (see the test).
e2e-churn: image $(B)/tests/connect-patch
	$(Q)MM2_E2E_CHURN=1 MM2_BUILD=$(abspath $(B)) bats --formatter tap --filter "real HTTP 409s" tests/e2e/offsets.bats

# The manifests on a real single-node Kubernetes (tests/kube/cluster.sh: built from the Go
# module proxy once, cached): the cluster and the bed's brokers start, the proofs of
# tests/kube/*.bats run (70_alerts.bats: the alerts that read kube-state-metrics, with a real
# kube-state-metrics, built and cached the same way, and a real Prometheus), and the last
# test takes it all down and compares the host with what it was before.
kube-e2e: image
	$(Q)tests/run-bats tests/kube
# make test's: all of that but the tests tagged long (all of 70_alerts.bats: building
# kube-state-metrics cold, about 3.5 minutes, and 4.5 minutes of faults on the kubelet's clocks).
kube-e2e-short: image
	$(Q)tests/run-bats --filter-tags '!long' tests/kube

# The same cluster by hand (KUBECONFIG=/var/lib/mm2kit-kube/pki/admin.kubeconfig), and gone.
kube-up: image
	$(Q)tests/kube/cluster.sh up
kube-down:
	$(Q)tests/kube/cluster.sh down

# The TLS profiles on a TLS bed (tests/tls: BED_SECURITY, a CA made per run, 198.18.12.0/24):
# replication over SASL_SSL/SCRAM-SHA-512 and mTLS, REST over HTTPS with forwarding, mm2-offsets'
# cutover over TLS and its TLS failures, the entrypoint's refusals, the secret sweep.
tls-e2e: image
	$(Q)tests/run-bats tests/tls
# The short form make test runs (the tests tagged short): one worker of the SASL_SSL/SCRAM
# profile with REST over HTTPS copies every record and answers mm2-probe --cacert; one of the
# mTLS profile copies every record, its workers' and its connector's target principal each with
# only their own ACLs; mm2-offsets' cutover over mTLS and over SASL_SSL/SCRAM and
# its five TLS failures; the entrypoint's refusal; the sweep (all but HTTPS forwarding).
tls-e2e-short: image
	$(Q)tests/run-bats --filter-tags short tests/tls

bed-smoke: image
	$(Q)rm -f build/bed/bed-smoke.line
	$(Q)tests/run-bats tests/e2e/bed_smoke.bats
	$(Q)cat build/bed/bed-smoke.line

# The Kafka versions users run (tests/compat/run.sh, docs/kafka-versions.md): the image
# built from each version's pinned jars, and on each, on a bed of its own (mm2kit-compat,
# 198.18.16.0/24), the smoke test, the entrypoint e2e, the offsets acceptance test and
# preflight's mixed-builds refusal. COMPAT_VERSIONS="3.6.2 4.0.2" for some of them.  make test
# runs compat-short: the version marked "short" there, an old one, the offsets tests only (the
# newest is the one e2e runs in full).
COMPAT_VERSIONS ?=
compat: deps $(B)/tests/connector-keys
	$(Q)MM2_BUILD=$(abspath $(B)) tests/compat/run.sh $(COMPAT_VERSIONS)
# Every connector key the project sets, requires or reads, against the config definitions of
# each Kafka version's own jars (tests/compat/config-keys.sh; CONFIG_KEYS_VERSIONS, default all
# of tests/compat/versions; make compat checks each version it runs). The key-by-version table
# of docs/kafka-versions.md: make config-keys CONFIG_KEYS_TABLE=build/config-keys.md
CONFIG_KEYS_VERSIONS ?=
CONFIG_KEYS_TABLE ?=
config-keys: deps $(B)/tests/connector-keys
	$(Q)MM2_BUILD=$(abspath $(B)) tests/compat/config-keys.sh $(if $(CONFIG_KEYS_TABLE),--table $(CONFIG_KEYS_TABLE)) $(CONFIG_KEYS_VERSIONS)
# The offsets acceptance test with the SOURCE on an older Kafka (tests/compat/source.sh):
# 3.6.2 KRaft and 2.8.2 with ZooKeeper by default; TARGET and Connect the newest.
COMPAT_SOURCES ?=
compat-source: deps
	$(Q)tests/compat/source.sh $(COMPAT_SOURCES)
compat-short: deps $(B)/tests/connector-keys
	$(Q)MM2_BUILD=$(abspath $(B)) tests/compat/run.sh --short $$(awk '/^[0-9].* short/ { print $$1; exit }' tests/compat/versions)

# Figures beside their baselines, measured in the same run (not tests).  BENCH_BASE=DIR (a
# work tree of an older commit with its build/ made) adds bench/memory: that build beside this one.
BENCH_BASE ?=
bench: all $(B)/tests/seal-artifact
	$(Q)bench/entrypoint/run.sh 500 $(if $(BED),--bed)
	$(Q)MM2_BUILD=$(abspath $(B)) bench/limits/run.sh
	$(Q)bench/listoffsets/run.sh
	$(Q)bench/tail/run.sh
	$(Q)bench/probe/https.sh 500
	$(if $(BED),$(Q)bench/probe/run.sh 1000)
	$(if $(BED),$(Q)bench/replication/run.sh)
	$(if $(BED),$(Q)bench/offsets/run.sh)
	$(if $(BENCH_BASE),$(Q)BENCH_BASE=$(abspath $(BENCH_BASE)) bench/memory/run.sh)

# ---- quality -------------------------------------------------------------------------------
C_FILES  = $(shell git ls-files '*.c' '*.h' 2>/dev/null)
SH_FILES = $(shell git ls-files '*.sh' '*.bash' '.ci/run' 'scripts/*' ':!scripts/banned-functions' ':!scripts/layer-check' 'tests/run-*' 'tests/memcheck-cli' 'tests/cold-build' 'tests/bed/bin/*' 'docker/mm2/bin/*' 2>/dev/null)
BATS_FILES = $(shell git ls-files '*.bats' 2>/dev/null)

lint: fmt-check
	@echo "  CPPCHECK"
	$(Q)cppcheck --quiet --error-exitcode=1 --std=c11 --enable=warning,style,performance,portability \
	  --inline-suppr --suppress=missingIncludeSystem -Ilib $(filter %.c,$(C_FILES))
	@echo "  SHELLCHECK"
# The two shellcheck passes side by side (each holds one core); both must pass.
	$(Q)shellcheck -x $(SH_FILES) & sh=$$!; shellcheck -x -s bash $(BATS_FILES); b=$$?; wait $$sh && [ $$b = 0 ]
	$(Q)scripts/banned-check $(C_FILES)
	@echo "  LAYER-CHECK $(B)"
	$(Q)$(MAKE) --no-print-directory all >/dev/null
	$(Q)scripts/layer-check $(B)
	@echo "  SIZE-CHECK lib entrypoint probes jobs"
	$(Q)scripts/size-check $(filter lib/% entrypoint/% probes/% jobs/%,$(C_FILES))
	@echo "  CHECKOV docker/mm2/Dockerfile"
	$(Q)$(LINT_VENV)/bin/checkov -f docker/mm2/Dockerfile --framework dockerfile --quiet --compact --skip-download

# Kubernetes manifests: render, validate (Kubernetes schemas, strict; the
# prometheus-operator CRDs generated by tests/k8s/crds.sh from the operator's
# Go API types), cross-check against the sources, and checkov with every skip
# justified in place.
K8S_RENDER = build/k8s
k8s-check:
	@command -v kubectl >/dev/null || { echo "k8s-check: kubectl (for kubectl kustomize) is not installed" >&2; exit 3; }
	@mkdir -p $(K8S_RENDER)
	$(Q)tests/k8s/crds.sh >$(K8S_RENDER)/crds.dir
	@echo "  KUSTOMIZE k8s/base k8s/overlays/example k8s/overlays/kube-e2e k8s/overlays/tls k8s/overlays/tls/mtls"
	$(Q)kubectl kustomize k8s/base >$(K8S_RENDER)/base.yaml
	$(Q)kubectl kustomize k8s/overlays/example >$(K8S_RENDER)/example.yaml
	$(Q)kubectl kustomize k8s/overlays/kube-e2e >$(K8S_RENDER)/kube-e2e.yaml
	$(Q)kubectl kustomize k8s/overlays/tls >$(K8S_RENDER)/tls.yaml
	$(Q)kubectl kustomize k8s/overlays/tls/mtls >$(K8S_RENDER)/tls-mtls.yaml
	@echo "  VALIDATE"
	$(Q)for f in example base kube-e2e tls tls-mtls; do \
	  MM2_CRD_SCHEMAS=$$(cat $(K8S_RENDER)/crds.dir) $(LINT_VENV)/bin/python tests/k8s/validate.py $(K8S_RENDER)/$$f.yaml >$(K8S_RENDER)/$$f.validate 2>&1 \
	    || { cat $(K8S_RENDER)/$$f.validate; exit 1; }; tail -n 1 $(K8S_RENDER)/$$f.validate; done
	@echo "  CONSISTENCY"
	$(Q)for f in example tls tls-mtls; do \
	  $(LINT_VENV)/bin/python tests/k8s/consistency.py . <$(K8S_RENDER)/$$f.yaml >$(K8S_RENDER)/$$f.consistency 2>&1 \
	    || { cat $(K8S_RENDER)/$$f.consistency; exit 1; }; printf '%s: ' $$f; tail -n 1 $(K8S_RENDER)/$$f.consistency; done
	@echo "  CHECKOV k8s"
	$(Q)$(LINT_VENV)/bin/checkov -f $(K8S_RENDER)/example.yaml --framework kubernetes --quiet --compact --skip-download
	$(Q)$(MAKE) --no-print-directory alerts-check

# The alerts as kustomize renders them (tests/alerts/README.md): promtool check
# rules, the promtool unit tests, and every dashboard query parsed by promtool.
alerts-check:
	$(Q)tests/alerts/check.sh $(LINT_VENV)/bin/python build/alerts

# No leaks: every unit binary (two valgrinds at a time: make test runs fuzz beside it), and the
# CLI runs of tests/memcheck-cli.
memcheck: $(UNIT_BIN) $(BINS) $(B)/tests/seal-artifact $(B)/tests/fake_kafka
	$(Q)printf '%s\n' $(UNIT_BIN) | xargs -P 2 -I{} sh -c 'valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99 "$$1" >/dev/null 2>&1 || { echo "memcheck: $$1 failed under valgrind" >&2; exit 255; }' memcheck {}
	$(Q)tests/memcheck-cli $(B)
	@echo "memcheck: no leaks or memory errors in $(words $(UNIT_BIN)) unit binaries and the CLI runs"

fmt-check:
	@echo "  FMT-CHECK"
	$(Q)clang-format --dry-run --Werror $(C_FILES)

fmt:
	$(Q)clang-format -i $(C_FILES)

# ---- install / image -----------------------------------------------------------------------
install: $(BINS)
	install -d $(DESTDIR)$(BINDIR)
	$(if $(BINS),install -m 0755 $(BINS) $(DESTDIR)$(BINDIR)/)
	$(if $(MAN_PAGES),install -d $(DESTDIR)$(MANDIR)/man1 && install -m 0644 $(MAN_PAGES) $(DESTDIR)$(MANDIR)/man1/)

deps:
	$(Q)scripts/deps.sh

image: deps
	$(Q)tests/bed/image.sh

# The cutover rehearsed on a bed of its own (tests/rehearsal/run.sh): report on stdout and in
# build/rehearsal/REPORT.md; exit 0 only when nothing was lost and every check passed.
rehearsal: deps image
	$(Q)tests/rehearsal/run.sh
# The same, shortened (fewer records, one rolling restart, one hard kill), as make test runs it.
rehearsal-short: deps image
	$(Q)tests/rehearsal/run.sh --short
# The short form on the test Kubernetes cluster: the Deployment controller's rolling update, the
# kubelet's restart of a killed worker, the Job as a Job, and checks drawn from the namespace's
# events.  Not in make test (219 s, the cluster's start included, beside rehearsal-short's 208 s
# on the podman bed: it could take its place once it has passed more than one run).
rehearsal-kube-short: deps image
	$(Q)tests/rehearsal/run.sh --short --on kube

# The alerts live on real workers (tests/alerts/README.md): a real Prometheus and
# Alertmanager, the test overlay's shortened fors, each alert's fault made for real.
alerts-e2e: image
	$(Q)tests/run-bats tests/alerts
alerts-e2e-short: image
	$(Q)tests/run-bats --filter-tags short tests/alerts

# The fault matrix (tests/faults/run.sh): brokers restarted and killed, a worker cut off and
# frozen, mm2-offsets under faults; report in build/faults/REPORT.md.  FAULTS_RUNS, FAULTS_ONLY.
faults: deps image
	$(Q)tests/faults/run.sh
# Its short form, as make test runs it: the TARGET broker SIGKILLed once while MM2 replicates,
# every source record audited on the target (nothing lost), the report beside the full one's.
faults-short: deps image
	$(Q)tests/faults/run.sh --short
# The SIGTERM-after-rebalance stop, many times (tests/faults/hang.sh): how often a stop hangs.
# HANG_VARIANT=member stops existing members of the group instead of a joining worker;
# HANG_DEADLINE (seconds since the epoch) ends the run after the stop that passes it.
HANG_ROUNDS ?= 20
faults-hang: deps image
	$(Q)tests/faults/hang.sh $(HANG_ROUNDS)

# The whole suite, as CI runs it (README).
test: deps
	$(Q)rm -f $(B)/test-times
	$(Q)TIMED_LOG=$(B)/test-times scripts/timed all $(MAKE) --no-print-directory all
	$(Q)TIMED_LOG=$(B)/test-times scripts/timed lint $(MAKE) --no-print-directory lint
	$(Q)TIMED_LOG=$(B)/test-times scripts/timed k8s-check $(MAKE) --no-print-directory k8s-check
	$(Q)TIMED_LOG=$(B)/test-times scripts/timed unit+san-unit $(MAKE) --no-print-directory unit san-unit
# The two CLI suites side by side: most of their time is spent waiting on fake
# servers and deadlines, not on a core; -Otarget prints each one whole when done. The cold
# build (librdkafka and the binaries from an empty cache) uses the cores they leave idle.
	$(Q)TIMED_LOG=$(B)/test-times scripts/timed cli+san-cli+cold-build $(MAKE) --no-print-directory -j3 -Otarget cli san-cli cold-build
# libFuzzer and valgrind each keep one core busy: side by side, 8 s per fuzz target
# (make fuzz alone runs FUZZ_SECONDS=20).
	$(Q)TIMED_LOG=$(B)/test-times scripts/timed fuzz+memcheck $(MAKE) --no-print-directory -j2 -Otarget fuzz memcheck FUZZ_SECONDS=8
	$(Q)TIMED_LOG=$(B)/test-times scripts/timed e2e-short $(MAKE) --no-print-directory e2e-short
	$(Q)TIMED_LOG=$(B)/test-times scripts/timed config-keys $(MAKE) --no-print-directory config-keys CONFIG_KEYS_VERSIONS=$$(awk '/^[0-9]/ { v = $$1 } END { print v }' tests/compat/versions)
	$(Q)TIMED_LOG=$(B)/test-times scripts/timed kube-e2e-short $(MAKE) --no-print-directory kube-e2e-short
	$(Q)TIMED_LOG=$(B)/test-times scripts/timed rehearsal-short $(MAKE) --no-print-directory rehearsal-short
	$(Q)TIMED_LOG=$(B)/test-times scripts/timed alerts-e2e-short $(MAKE) --no-print-directory alerts-e2e-short
	$(Q)TIMED_LOG=$(B)/test-times scripts/timed compat-short $(MAKE) --no-print-directory compat-short
	$(Q)TIMED_LOG=$(B)/test-times scripts/timed faults-short $(MAKE) --no-print-directory faults-short
	$(Q)TIMED_LOG=$(B)/test-times scripts/timed tls-e2e-short $(MAKE) --no-print-directory tls-e2e-short
	$(Q)TIMED_LOG=$(B)/test-times scripts/timed --summary

clean:
	rm -rf $(BUILD)
