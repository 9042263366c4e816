#!/bin/sh
# Releases a new catalogue to the catalogue@PORT instances of this machine, one at a time:
#   deploy/rollout.sh SOURCE_DIR BUILT_AT PORT...     e.g. deploy/rollout.sh /srv/catalogue/source-2026-04 2026-04-01 8081 8082
# Builds once (bad source: the errors are printed and nothing is released), then per instance: hard-links the
# new file to a side name and renames it over the instance's path (atomic; the instance switches within a second),
# and waits for the instance's /health to report the new built_at before going on. Run it on each machine in turn.
set -eu
SRC=$1; BUILT_AT=$2; shift 2
DIR=/srv/catalogue
NEXT=$DIR/release-$BUILT_AT.db
cd /opt/catalogue
node_modules/.bin/node bin/catalogue.js build --source "$SRC" --out "$NEXT" --built-at "$BUILT_AT"
for PORT in "$@"; do
  ln -f "$NEXT" "$DIR/.next-$PORT.db"
  mv -f "$DIR/.next-$PORT.db" "$DIR/instance-$PORT.db"
  i=0
  until curl -fsS "http://127.0.0.1:$PORT/health" | grep -q "\"built_at\":\"$BUILT_AT\""; do
    i=$((i + 1))
    if [ "$i" -gt 120 ]; then echo "rollout: instance $PORT still not on $BUILT_AT after 60 s; stopping here" >&2; exit 1; fi
    sleep 0.5
  done
  echo "rollout: instance $PORT serves $BUILT_AT"
done
# Old release files are removed once no instance path links to them (each still-open file stays readable until closed).
find "$DIR" -maxdepth 1 -name 'release-*.db' ! -name "release-$BUILT_AT.db" -links 1 -delete
