#!/usr/bin/env bash
# build-librdkafka.sh — the librdkafka that status-store builds against by default, built from the
# upstream release as Debian's archive carries it, into a cache outside the repo (like the Kafka jars).
#
#   scripts/build-librdkafka.sh           fetch, verify, build and install into the cache, then print
#                                         the prefix; a no-op (prints the prefix) when the cache is complete
#   scripts/build-librdkafka.sh prefix    print the prefix only (CMake's default
#                                         STATUS_STORE_LIBRDKAFKA_PREFIX), built or not
#   scripts/build-librdkafka.sh version   print the pinned version
#
# Why: Debian 12's librdkafka 2.0.2 sends the client nonce twice in SCRAM's final message, which every
# Kafka with the CVE-2024-56128 fix refuses (3.7.2, 3.8.1, 3.9.x, 4.x); the fix is in 2.6.1 (upstream
# PR #4895). Debian 13 "trixie" carries 2.8.0 as a source package. Pinned to trixie, a stable release,
# rather than unstable's newer version: unstable's source package is replaced on every upload, so a pin
# to it would stop fresh clones from building; another version is one LIBRDKAFKA_* setting away.
#
# How: `apt-get source --download-only` through a private apt configuration (one deb-src entry for the
# suite, its own lists directory; the system's apt set-up is not touched; the archive's URI is read
# from this machine's own apt sources). apt checks the files against the suite's signed index; this
# script then checks the upstream tarball (the .orig.tar.gz, byte-identical to the upstream release and
# unchanged by Debian revisions) against the sha256 pinned below, and fails if either check fails.
# Built with librdkafka's ./configure (not its CMake: for 2.11-2.14 that build never raises
# _ALL_BROKERS_DOWN and needs curl), SSL, SASL (GSSAPI and SCRAM), zstd and system lz4, no curl.
#
# Environment:
#   LIBRDKAFKA_VERSION  upstream version (default: the pinned one below)
#   LIBRDKAFKA_SUITE    Debian suite whose source package carries it (default: the pin's suite)
#   LIBRDKAFKA_SHA256   sha256 of librdkafka_<version>.orig.tar.gz, required for a version not pinned here
#   STATUS_STORE_CACHE  cache root, outside the repo (default ~/.cache/status-store); the library goes
#                       to $STATUS_STORE_CACHE/librdkafka-<version> and is kept between runs
#   BUILD_JOBS          make -j (default 2)
# Needs: apt-get, debian-archive-keyring, a C toolchain, libssl-dev libsasl2-dev zlib1g-dev libzstd-dev
# liblz4-dev (scripts/install-deps.sh installs them and then calls this script).
set -euo pipefail

# The pin: version, Debian suite, sha256 of the upstream tarball.
PINNED_VERSION=2.8.0
pinned() {  # pinned VERSION: "SUITE SHA256" of a version this script knows
  case $1 in
    2.8.0) echo "trixie 5bd1c46f63265f31c6bfcedcde78703f77d28238eadf23821c2b43fc30be3e25" ;;
    *) echo "" ;;
  esac
}

VERSION=${LIBRDKAFKA_VERSION:-$PINNED_VERSION}
pin=$(pinned "$VERSION")
SUITE=${LIBRDKAFKA_SUITE:-${pin%% *}}
SHA256=${LIBRDKAFKA_SHA256:-${pin##* }}
home=${HOME:-$(cd ~ && pwd)}  # CI may run without HOME; ~ then comes from the passwd entry
CACHE_ROOT=${STATUS_STORE_CACHE:-${XDG_CACHE_HOME:-$home/.cache}/status-store}
PREFIX=$CACHE_ROOT/librdkafka-$VERSION
JOBS=${BUILD_JOBS:-2}
CONFIGURE_FLAGS=(--enable-ssl --enable-gssapi --enable-zstd --enable-lz4-ext --disable-curl)

log() { echo "build-librdkafka: $*" >&2; }
die() { log "error: $*"; exit 1; }

archive_uri() {  # the Debian archive this machine already uses (deb822 or one-line sources)
  local uri
  uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null \
        | awk '/^URIs:/ { for (i = 2; i <= NF; i++) if ($i !~ /security/) { print $i; exit } }')
  [ -n "$uri" ] || uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
        | awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { if ($i !~ /security/) { print $i; exit } } }')
  [ -n "$uri" ] || die "no Debian archive URI in /etc/apt/sources.list{,.d}"
  echo "$uri"
}

build() {
  [ -f "$PREFIX/.complete" ] && { echo "$PREFIX"; return 0; }
  [ -n "$SUITE" ] && [ -n "$SHA256" ] \
    || die "librdkafka $VERSION is not pinned here: set LIBRDKAFKA_SUITE and LIBRDKAFKA_SHA256 (of its .orig.tar.gz)"
  command -v apt-get >/dev/null || die "apt-get not found"
  mkdir -p "$CACHE_ROOT"
  # One build at a time per cache (two test runs on one machine); the second finds .complete.
  exec 8>"$CACHE_ROOT/.librdkafka-$VERSION.lock"
  flock 8
  if [ -f "$PREFIX/.complete" ]; then exec 8>&-; echo "$PREFIX"; return 0; fi
  local started=$SECONDS keyring
  work=$(mktemp -d "$CACHE_ROOT/.librdkafka-build-XXXXXX")  # global: the EXIT trap removes it
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work/apt/sourceparts" "$work/apt/lists/partial" "$work/src"
  keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  [ -r "$keyring" ] || die "$keyring missing (apt-get install debian-archive-keyring)"
  echo "deb-src [signed-by=$keyring] $(archive_uri) $SUITE main" > "$work/apt/sourceparts/$SUITE.list"
  local apt_opts=(-q -o Dir::Etc::sourcelist=/dev/null -o "Dir::Etc::sourceparts=$work/apt/sourceparts"
                  -o "Dir::State::Lists=$work/apt/lists" -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=
                  -o "APT::Sandbox::User=$(id -un)")
  log "fetching the librdkafka $VERSION source package from Debian's $SUITE"
  apt-get "${apt_opts[@]}" update > "$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; die "apt-get update of $SUITE's source index failed"; }
  # apt verifies the downloaded files against the signed index before it reports success.
  (cd "$work/src" && apt-get "${apt_opts[@]}" source --download-only "librdkafka/$SUITE" >> "$work/apt.log" 2>&1) \
    || { cat "$work/apt.log" >&2; die "apt-get source librdkafka/$SUITE failed"; }
  local tarball=$work/src/librdkafka_$VERSION.orig.tar.gz
  [ -f "$tarball" ] || die "$SUITE has no librdkafka $VERSION (got: $(cd "$work/src" && ls))"
  echo "$SHA256  $tarball" | sha256sum -c --quiet - \
    || die "librdkafka_$VERSION.orig.tar.gz does not match the pinned sha256 $SHA256"
  log "verified librdkafka_$VERSION.orig.tar.gz (sha256 $SHA256)"
  tar -xzf "$tarball" -C "$work"
  local srcdir=$work/librdkafka-$VERSION
  [ -x "$srcdir/configure" ] || die "no librdkafka-$VERSION/configure in the tarball"
  rm -rf "$PREFIX"
  log "building librdkafka $VERSION (./configure ${CONFIGURE_FLAGS[*]}, make -j$JOBS libs) into $PREFIX"
  if ! (cd "$srcdir" && ./configure --prefix="$PREFIX" "${CONFIGURE_FLAGS[@]}" && make -j"$JOBS" libs \
          && make install-subdirs) > "$work/build.log" 2>&1; then
    tail -40 "$work/build.log" >&2
    rm -rf "$PREFIX"
    die "the librdkafka $VERSION build failed"
  fi
  [ -f "$PREFIX/include/librdkafka/rdkafka_mock.h" ] || die "rdkafka_mock.h was not installed"
  [ -f "$PREFIX/lib/pkgconfig/rdkafka.pc" ] || die "rdkafka.pc was not installed"
  # librdkafka is BSD-2-Clause with bundled parts under other licences: the licences go with it.
  mkdir -p "$PREFIX/share/doc/librdkafka"
  cp "$srcdir/LICENSES.txt" "$srcdir/LICENSE" "$srcdir/CHANGELOG.md" "$PREFIX/share/doc/librdkafka/"
  {
    echo "librdkafka $VERSION from Debian $SUITE's source package $(cd "$work/src" && ls ./*.dsc | sed 's|^\./||')"
    echo "orig.tar.gz sha256 $SHA256"
    echo "./configure ${CONFIGURE_FLAGS[*]}"
  } > "$PREFIX/share/doc/librdkafka/BUILD-INFO"
  touch "$PREFIX/.complete"
  log "librdkafka $VERSION built in $((SECONDS - started)) s: $PREFIX"
  exec 8>&-
  echo "$PREFIX"
}

case ${1:-build} in
  build) build ;;
  prefix) echo "$PREFIX" ;;
  version) echo "$VERSION" ;;
  *) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
