#!/usr/bin/env bash
# Makes the throwaway PKI that tests/tls/ uses: a CA, a server certificate for 127.0.0.1/localhost,
# the server's keystore in every format the REST listener reads (and JKS, which it refuses), a
# Java-style truststore, a client certificate signed by the CA and one signed by another CA.
# Usage: tests/app/make_tls_fixtures.sh OUTDIR
# Idempotent: a complete OUTDIR made by this version of the script is left as it is; otherwise the
# files are made in a temporary directory next to it and moved into place. No network; about 2 s
# (the two keytool runs are most of it).
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 OUTDIR" >&2
  exit 2
fi
out=$1
stamp_value=$(sha256sum "$0" | cut -d' ' -f1)
if [ -f "$out/.complete" ] && [ "$(cat "$out/.complete")" = "$stamp_value" ]; then
  echo "make_tls_fixtures.sh: $out is up to date"
  exit 0
fi
command -v keytool >/dev/null || { echo "make_tls_fixtures.sh: keytool (a JDK) is needed" >&2; exit 2; }

# The passwords the tests use (tests/tls/tls_fixtures.hpp has the same values).
store_pass=server-store-secret
key_pass=server-key-secret
trust_pass=trust-store-secret
client_pass=client-store-secret

mkdir -p "$(dirname "$out")"
work=$(mktemp -d "$out.tmp.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

ec_key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }
ca() {  # ca NAME SUBJECT
  ec_key "$1.key"
  openssl req -x509 -new -key "$1.key" -subj "$2" -days 3650 -sha256 -out "$1.pem" \
    -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign
}
sign() {  # sign NAME CA EXTENSIONS...: NAME.key/NAME.csr -> NAME.crt signed by CA
  local name=$1 issuer=$2
  shift 2
  printf '%s\n' "$@" >"$name.ext"
  openssl x509 -req -in "$name.csr" -CA "$issuer.pem" -CAkey "$issuer.key" -CAcreateserial -days 3650 -sha256 \
    -extfile "$name.ext" -out "$name.crt" 2>/dev/null
}

ca ca "/CN=status-store test CA"
ca other-ca "/CN=status-store untrusted test CA"

# The server: an RSA key (the TLS_ECDHE_RSA_* suites need one), certified for 127.0.0.1 and localhost.
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out server.key 2>/dev/null
openssl req -new -key server.key -subj "/CN=localhost" -out server.csr
sign server ca "subjectAltName=IP:127.0.0.1,DNS:localhost" "extendedKeyUsage=serverAuth" \
  "keyUsage=critical,digitalSignature,keyEncipherment"
cat server.crt ca.pem >server-chain.pem
openssl pkcs12 -export -inkey server.key -in server.crt -certfile ca.pem -name server \
  -passout "pass:$store_pass" -out server.p12
# As an old keytool or `openssl pkcs12 -legacy` writes it (RC2/3DES), which OpenSSL 3 refuses by default.
openssl pkcs12 -export -legacy -inkey server.key -in server.crt -certfile ca.pem -name server \
  -passout "pass:$store_pass" -out server-legacy.p12
openssl pkey -in server.key -aes256 -passout "pass:$key_pass" -out server-encrypted.key
cat server-encrypted.key server-chain.pem >server.pem
cat server.key server-chain.pem >server-plain.pem

# Clients: one signed by the CA, one by the other CA (self-consistent, but not trusted by the server).
for client in client untrusted-client; do
  ec_key "$client.key"
  openssl req -new -key "$client.key" -subj "/CN=$client" -out "$client.csr"
done
sign client ca "extendedKeyUsage=clientAuth"
sign untrusted-client other-ca "extendedKeyUsage=clientAuth"
mv client.crt client.pem
mv untrusted-client.crt untrusted-client.pem
openssl pkcs12 -export -inkey client.key -in client.pem -certfile ca.pem -name client \
  -passout "pass:$client_pass" -out client.p12

# As Java writes them: a PKCS12 truststore of trusted-certificate entries (no key) and a JKS keystore.
keytool -importcert -noprompt -storetype PKCS12 -keystore truststore.p12 -storepass "$trust_pass" \
  -alias ca -file ca.pem >/dev/null 2>&1
keytool -importkeystore -noprompt -srckeystore server.p12 -srcstoretype PKCS12 -srcstorepass "$store_pass" \
  -destkeystore server.jks -deststoretype JKS -deststorepass "$store_pass" >/dev/null 2>&1

rm -f ./*.csr ./*.ext ./*.srl
echo "$stamp_value" >.complete
rm -rf "$out"
mv "$work" "$out"
trap - EXIT
echo "make_tls_fixtures.sh: made $(ls "$out" | tr '\n' ' ')in $out"
