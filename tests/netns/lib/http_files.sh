# A web server with a file of random bytes on each end host (Python's http.server) and a download
# through the tunnel checked by sha256. Needs lib/netns.sh sourced, WORK, and h1 (10.1.0.2) and
# h2 (10.2.0.2) from build_two_gateway_topology.

# Writes a 16 MiB file for each host and serves it on port 8080.
serve_random_files() {
  local h
  for h in h1 h2; do
    mkdir -p "$WORK/www-$h"
    head -c $((16 * 1024 * 1024)) /dev/urandom > "$WORK/www-$h/file.bin"
  done
  ns_bg h1 /usr/bin/python3 -m http.server 8080 --bind 10.1.0.2 --directory "$WORK/www-h1" > /dev/null 2>&1
  ns_bg h2 /usr/bin/python3 -m http.server 8080 --bind 10.2.0.2 --directory "$WORK/www-h2" > /dev/null 2>&1
}

# download FROM TO WHAT: curl on host TO fetches FROM's file through the tunnel and compares its
# sha256; fails naming WHAT (the case being tested).
download() {
  local from=$1 to=$2 what=$3 addr want got
  [ "$from" = h1 ] && addr=10.1.0.2 || addr=10.2.0.2
  nsx "$to" curl -sS --max-time 60 -o "$WORK/got-$to.bin" \
    -w "   $from -> $to: %{size_download} bytes in %{time_total} s\n" "http://$addr:8080/file.bin" ||
    fail "download $from -> $to failed ($what)"
  want=$(sha256sum < "$WORK/www-$from/file.bin" | cut -d' ' -f1)
  got=$(sha256sum < "$WORK/got-$to.bin" | cut -d' ' -f1)
  [ "$want" = "$got" ] || fail "$from -> $to: sha256 $got, want $want ($what)"
}
