#!/usr/bin/env bash
# Verifies the deployment recipe on this machine (docs/deployment.md), all on loopback:
#   1. the systemd unit with `systemd-analyze verify`;
#   2. the Caddy and nginx configurations with their own checks (`caddy validate`, `nginx -t`);
#   3. a run behind the proxy: the built service on 127.0.0.1:$SERVICE_PORT, Caddy (`tls internal`)
#      or nginx (an openssl self-signed certificate) on https://127.0.0.2:$PROXY_PORT, then
#      /healthz, /readyz, the admin API and /metrics kept off the proxy, a payment created through
#      it, its checkout page opened from another address (127.0.0.3) with a forged
#      X-Forwarded-For, the address the service recorded, `npm run admin -- doctor`, and a clean stop.
#      Run as root, the service runs confined as the unit would confine it (below).
#
# Usage: deploy/check.sh [caddy|nginx|both]          (default: both)
# Environment:
#   APP_DIR       the built checkout to run (default: this repository; `npm run build` first)
#   DATABASE_URL  a PostgreSQL database to run on (production mode, as the recipe); unset: the
#                 embedded database in a temporary directory
#   SERVICE_PORT, PROXY_PORT   default 3900 and 8943
# Prints each command and its output; exits non-zero at the first check that fails.
set -euo pipefail

PROXIES="${1:-both}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export APP_DIR="${APP_DIR:-$(dirname "$HERE")}"
SERVICE_PORT="${SERVICE_PORT:-3900}"
PROXY_PORT="${PROXY_PORT:-8943}"
PROXY_IP=127.0.0.2
CLIENT_IP=127.0.0.3
FORGED_IP=203.0.113.66
WORK="$(mktemp -d /tmp/payments-check.XXXXXX)"
PIDS=()

cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK" "${STATE:-}"
}
trap cleanup EXIT

if [[ -t 1 ]]; then say() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }; else say() { printf '\n$ %s\n' "$*"; }; fi
run() { say "$*"; "$@"; }
fail() { echo "CHECK FAILED: $*" >&2; exit 1; }
node_bin="$(command -v node)" || fail "node is not on PATH (. scripts/node24.sh)"

echo "Deployment check: app $APP_DIR, node $("$node_bin" --version), $(caddy version | cut -d' ' -f1) (caddy), $(nginx -v 2>&1 | cut -d/ -f2) (nginx), $(systemd-analyze --version | head -1)"

# --- 1. The unit -------------------------------------------------------------------------------
# The unit's ExecStart names /usr/local/bin/node; verified with this machine's node in its place
# (systemd-analyze checks that the program exists).
sed "s#^ExecStart=/usr/local/bin/node #ExecStart=$node_bin #" "$HERE/payments.service" > "$WORK/payments.service"
run systemd-analyze verify "$WORK/payments.service"
echo "unit OK (ExecStart's node: $node_bin)"

# --- 2. The proxies' own checks -------------------------------------------------------------------
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=$PROXY_IP" -addext "subjectAltName=IP:$PROXY_IP" \
  -keyout "$WORK/key.pem" -out "$WORK/cert.pem" 2>/dev/null
mkdir -p "$WORK/caddy" "$WORK/nginx"
export XDG_DATA_HOME="$WORK/caddy" XDG_CONFIG_HOME="$WORK/caddy"

if [[ $PROXIES != nginx ]]; then
  run caddy validate --adapter caddyfile --config "$HERE/caddy/Caddyfile"
fi
# nginx: the site as shipped, with its certificate paths pointed at the self-signed pair.
nginx_main() { # $1: the server blocks to include
  cat <<EOF
worker_processes 1;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log notice;
events { worker_connections 64; }
http {
  access_log $WORK/nginx/access.log;
  client_body_temp_path $WORK/nginx/body;
  proxy_temp_path $WORK/nginx/proxy;
  fastcgi_temp_path $WORK/nginx/fastcgi;
  uwsgi_temp_path $WORK/nginx/uwsgi;
  scgi_temp_path $WORK/nginx/scgi;
  include $1;
}
EOF
}
if [[ $PROXIES != caddy ]]; then
  sed -e "s#/etc/letsencrypt/live/pay.example.com/fullchain.pem#$WORK/cert.pem#" \
      -e "s#/etc/letsencrypt/live/pay.example.com/privkey.pem#$WORK/key.pem#" \
      -e "s#/etc/nginx/snippets/payments-proxy.conf#$HERE/nginx/payments-proxy.conf#" \
      "$HERE/nginx/payments.conf" > "$WORK/nginx/site.conf"
  nginx_main "$WORK/nginx/site.conf" > "$WORK/nginx/validate.conf"
  run nginx -t -c "$WORK/nginx/validate.conf"
fi

# --- 3. A run behind the proxy -------------------------------------------------------------------
# The unit's StateDirectory: outside /tmp, which the confinement below replaces.
STATE="$(mktemp -d /var/lib/payments-check.XXXXXX 2> /dev/null || mktemp -d "$WORK/state.XXXXXX")"
ADMIN_TOKEN="check-$(openssl rand -hex 16)"
export PORT="$SERVICE_PORT" PUBLIC_BASE_URL="https://$PROXY_IP:$PROXY_PORT" TRUSTED_PROXIES=127.0.0.1 \
  ADMIN_TOKEN API_KEY_SECRET="$(openssl rand -base64 48)" METRICS_TOKEN="$(openssl rand -hex 24)" \
  DATA_DIR="$STATE" RATES_FILE="$APP_DIR/test/fixtures/pinned-rates.json" SHUTDOWN_TIMEOUT_SECONDS=10

# The unit's confinement, emulated (systemd is not PID 1 here, so it cannot run the unit itself):
# a private mount namespace whose file system is read-only except DATA_DIR and the build's cache
# (ProtectSystem=strict, StateDirectory, ReadWritePaths), with a private /tmp (PrivateTmp), empty
# /root and /home (ProtectHome), run as an unprivileged user that cannot gain privileges (User=,
# NoNewPrivileges). A write anywhere else fails, and the log is searched for such failures below.
CONFINED=no
if [[ $(id -u) == 0 ]] && command -v unshare > /dev/null && command -v setpriv > /dev/null; then CONFINED=yes; fi
# Replaces the calling (sub)shell, so that the signal systemd would send reaches start.mjs itself.
exec_confined() {
  if [[ $CONFINED != yes ]]; then exec "$@"; fi
  chown 65534:65534 "$STATE"
  # shellcheck disable=SC2016 # expanded by the inner shell
  HOME="$APP_DIR" exec unshare -m --propagation private -- bash -c '
    set -e
    mount --bind "$DATA_DIR" "$DATA_DIR"
    if [[ -d $APP_DIR/.next/cache ]]; then mount --bind "$APP_DIR/.next/cache" "$APP_DIR/.next/cache"; fi
    mount --rbind / / && mount -o remount,bind,ro /
    # A build under /tmp is carried over the private /tmp.
    if [[ $APP_DIR == /tmp/* ]]; then mount --rbind "$APP_DIR" /mnt; fi
    mount -t tmpfs -o mode=1777 tmpfs /tmp
    if [[ $APP_DIR == /tmp/* ]]; then mkdir -p "$APP_DIR" && mount --rbind /mnt "$APP_DIR"; fi
    mount -t tmpfs -o ro,mode=0755 tmpfs /root && mount -t tmpfs -o ro,mode=0755 tmpfs /home
    cd "$APP_DIR"
    exec setpriv --reuid=65534 --regid=65534 --clear-groups --no-new-privs -- "$@"' exec_confined "$@"
}

if [[ -n ${DATABASE_URL:-} ]]; then where="PostgreSQL at ${DATABASE_URL##*@}: production"; else where="the embedded database in $STATE"; fi
[[ $CONFINED == yes ]] && confinement=", confined as the unit (read-only file system but $STATE, private /tmp, user nobody)" || confinement=""
say "node scripts/start.mjs   (the unit's ExecStart: 127.0.0.1:$SERVICE_PORT, $where$confinement)"
(cd "$APP_DIR" && exec_confined "$node_bin" scripts/start.mjs) > "$WORK/service.log" 2>&1 &
SERVICE_PID=$!
PIDS+=("$SERVICE_PID")
for _ in $(seq 1 120); do
  curl -fsS "http://127.0.0.1:$SERVICE_PORT/healthz" > /dev/null 2>&1 && break
  kill -0 "$SERVICE_PID" 2>/dev/null || { cat "$WORK/service.log"; fail "the service exited"; }
  sleep 0.5
done
curl -fsS "http://127.0.0.1:$SERVICE_PORT/healthz" > /dev/null || fail "the service does not answer"
echo "service up (pid $SERVICE_PID)"

# One business over the admin API, on the service's own port (the proxy keeps /admin off).
say "curl -X POST http://127.0.0.1:$SERVICE_PORT/admin/v1/businesses  (ADMIN_TOKEN)"
business="$(curl -fsS -X POST "http://127.0.0.1:$SERVICE_PORT/admin/v1/businesses" -H "Authorization: Bearer $ADMIN_TOKEN" \
  -H 'Content-Type: application/json' -d '{"name":"Deployment check"}')"
BUSINESS_ID="$(jq -r .data.businessId <<< "$business")"
API_KEY="$(jq -r .data.apiKey <<< "$business")"
echo "business $BUSINESS_ID, API key ${API_KEY:0:12}…"

start_proxy() { # $1: caddy | nginx; sets CA (the certificate curl trusts)
  if [[ $1 == caddy ]]; then
    cat > "$WORK/caddy/Caddyfile" <<EOF
{
	admin off
	skip_install_trust
	auto_https disable_redirects
}
https://$PROXY_IP:$PROXY_PORT {
	bind $PROXY_IP
	tls internal
	import $HERE/caddy/payments.caddy
}
EOF
    say "PAYMENTS_UPSTREAM=127.0.0.1:$SERVICE_PORT caddy run --adapter caddyfile --config $WORK/caddy/Caddyfile  (tls internal)"
    PAYMENTS_UPSTREAM="127.0.0.1:$SERVICE_PORT" caddy run --adapter caddyfile --config "$WORK/caddy/Caddyfile" > "$WORK/caddy/log" 2>&1 &
    PROXY_PID=$!
    CA="$WORK/caddy/caddy/pki/authorities/local/root.crt"
  else
    cat > "$WORK/nginx/run-site.conf" <<EOF
upstream payments { server 127.0.0.1:$SERVICE_PORT; keepalive 16; }
server {
  listen $PROXY_IP:$PROXY_PORT ssl http2;
  ssl_certificate $WORK/cert.pem;
  ssl_certificate_key $WORK/key.pem;
  include $HERE/nginx/payments-proxy.conf;
}
EOF
    nginx_main "$WORK/nginx/run-site.conf" > "$WORK/nginx/run.conf"
    say "nginx -c $WORK/nginx/run.conf -g 'daemon off;'  (openssl self-signed certificate, deploy/nginx/payments-proxy.conf)"
    nginx -c "$WORK/nginx/run.conf" -g 'daemon off;' &
    PROXY_PID=$!
    CA="$WORK/cert.pem"
  fi
  PIDS+=("$PROXY_PID")
  for _ in $(seq 1 40); do
    [[ -f $CA ]] && curl -s --cacert "$CA" -o /dev/null "https://$PROXY_IP:$PROXY_PORT/healthz" && return 0
    sleep 0.25
  done
  fail "$1 does not answer on https://$PROXY_IP:$PROXY_PORT"
}

stop_proxy() {
  kill "$PROXY_PID" && wait "$PROXY_PID" 2>/dev/null || true
}

through_proxy() { # $1: caddy | nginx
  local base="https://$PROXY_IP:$PROXY_PORT" status body
  start_proxy "$1"
  say "curl --cacert $CA $base/healthz"
  curl -fsS -D "$WORK/headers" --cacert "$CA" "$base/healthz"; echo
  grep -i '^strict-transport-security' "$WORK/headers" || fail "no HSTS header"
  say "curl --cacert $CA $base/readyz"
  body="$(curl -fsS --cacert "$CA" "$base/readyz")"; echo "$body"
  [[ $(jq -r .status <<< "$body") == ready ]] || fail "not ready"
  for path in /admin/v1/chains /metrics; do
    status="$(curl -s -o /dev/null -w '%{http_code}' --cacert "$CA" -H "Authorization: Bearer $ADMIN_TOKEN" "$base$path")"
    echo "$path through the proxy: $status"
    [[ $status == 404 ]] || fail "$path is reachable through the proxy"
  done
  say "curl -X POST $base/v1/businesses/$BUSINESS_ID/payments (API key)"
  body="$(curl -fsS --cacert "$CA" -X POST "$base/v1/businesses/$BUSINESS_ID/payments" -H "Authorization: Bearer $API_KEY" \
    -H 'Content-Type: application/json' -d '{"currency":"USD","amount":25}')"
  local id url
  id="$(jq -r .data.id <<< "$body")"; url="$(jq -r .data.url <<< "$body")"
  echo "payment $id, checkout $url"
  [[ $url == "$base/pay/$id" ]] || fail "the checkout URL is not under PUBLIC_BASE_URL"
  say "curl --interface $CLIENT_IP -H 'X-Forwarded-For: $FORGED_IP' $url"
  status="$(curl -s -o "$WORK/page.html" -w '%{http_code}' --cacert "$CA" --interface "$CLIENT_IP" -H "X-Forwarded-For: $FORGED_IP" "$url")"
  echo "HTTP $status, $(wc -c < "$WORK/page.html") bytes, title: $(grep -o '<title>[^<]*</title>' "$WORK/page.html" | head -1)"
  [[ $status == 200 ]] || fail "the checkout page answered $status"
  say "curl $base/v1/businesses/$BUSINESS_ID/payments/$id | jq .data.customer.ipAddresses[].ip"
  local seen
  seen="$(curl -fsS --cacert "$CA" "$base/v1/businesses/$BUSINESS_ID/payments/$id" -H "Authorization: Bearer $API_KEY" | jq -r '.data.customer.ipAddresses[]?.ip')"
  echo "client address the service recorded: $seen (proxy connects from 127.0.0.1, client from $CLIENT_IP, forged $FORGED_IP)"
  [[ $seen == "$CLIENT_IP" ]] || fail "the service recorded \"$seen\", not the forwarded client address $CLIENT_IP"
  say "npm run admin -- doctor   (BASE_URL=http://127.0.0.1:$SERVICE_PORT NODE_EXTRA_CA_CERTS=$CA)"
  (cd "$APP_DIR" && BASE_URL="http://127.0.0.1:$SERVICE_PORT" NODE_EXTRA_CA_CERTS="$CA" "$node_bin" node_modules/tsx/dist/cli.mjs scripts/admin.ts doctor) ||
    fail "the doctor found a failure"
  stop_proxy
}

case $PROXIES in
  caddy | nginx) through_proxy "$PROXIES" ;;
  both) through_proxy caddy && through_proxy nginx ;;
  *) fail "usage: deploy/check.sh [caddy|nginx|both]" ;;
esac

say "kill -TERM $SERVICE_PID   (as systemctl stop: SIGTERM to start.mjs, KillMode=mixed)"
kill -TERM "$SERVICE_PID"
code=0
wait "$SERVICE_PID" || code=$?
# The server's last lines, JSON (LOG_FORMAT=json under npm start) or not: their message.
grep -E '\[server\]|stopped' "$WORK/service.log" | tail -3 | sed -E 's/^\{.*"msg":"([^"]*)".*$/\1/' || true
echo "service exit code: $code"
[[ $code == 0 ]] || fail "the service did not stop cleanly"
if grep -E 'EROFS|EACCES|read-only file system|permission denied' -i "$WORK/service.log"; then
  fail "the service tried to write where the unit does not let it"
fi
[[ $CONFINED == yes ]] && echo "no write outside DATA_DIR and the build's cache was refused in the service's log"
cp "$WORK/service.log" "${TMPDIR:-/tmp}/payments-check-service.log" && echo "the service's log: ${TMPDIR:-/tmp}/payments-check-service.log"
echo
echo "All deployment checks passed."
