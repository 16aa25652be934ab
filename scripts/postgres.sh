#!/usr/bin/env bash
# Installs PostgreSQL 15 from Debian's packages when missing, starts the
# local cluster, and makes sure the role the team tests connect as exists:
# palace_test, with a password, allowed to create databases and roles (each
# test makes its own database and member roles and drops them). Prints the
# connection string on its last line, for the Makefile's PALACE_TEST_PG.
# Safe to run again.
#
#   scripts/postgres.sh
set -euo pipefail

if ! [ -x /usr/lib/postgresql/15/bin/postgres ] || ! command -v pg_ctlcluster >/dev/null 2>&1; then
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	echo "==> apt-get install -y postgresql-15" >&2
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql-15 postgresql-client-15 >/dev/null
fi
as_postgres() {
	if [ "$(id -u)" -eq 0 ]; then su postgres -s /bin/sh -c "$*"; else sudo -u postgres sh -c "$*"; fi
}
if ! pg_lsclusters -h 2>/dev/null | awk '$1 == 15 && $2 == "main"' | grep -q .; then
	echo "==> pg_createcluster 15 main" >&2
	as_postgres "pg_createcluster 15 main" >/dev/null
fi
if ! pg_lsclusters -h | awk '$1 == 15 && $2 == "main" {print $4}' | grep -q online; then
	echo "==> pg_ctlcluster 15 main start" >&2
	if [ "$(id -u)" -eq 0 ]; then
		pg_ctlcluster --skip-systemctl-redirect 15 main start
	else
		sudo pg_ctlcluster --skip-systemctl-redirect 15 main start
	fi
fi
port=$(pg_lsclusters -h | awk '$1 == 15 && $2 == "main" {print $3}')
for _ in $(seq 1 50); do
	pg_isready -q -h 127.0.0.1 -p "$port" && break
	sleep 0.2
done
# A fixed password: the cluster listens on localhost only and the role
# exists for the tests.
as_postgres "psql -q -p $port -v ON_ERROR_STOP=1 -d postgres" <<'SQL' >/dev/null
DO $$ BEGIN
	IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'palace_test') THEN
		CREATE ROLE palace_test LOGIN CREATEDB CREATEROLE PASSWORD 'palace_test';
	END IF;
END $$;
-- A test drops its database WITH (FORCE), which ends its member roles'
-- connections still closing; without this, PostgreSQL refuses that
-- ("must be a member of pg_signal_backend") and the cleanup fails.
GRANT pg_signal_backend TO palace_test;
SQL
echo "==> PostgreSQL 15 cluster main online on port $port (role palace_test)" >&2
echo "postgres://palace_test:palace_test@127.0.0.1:$port/postgres"
