# SPDX-License-Identifier: MIT
# tools/sql: `ltt sql`'s prompt and output over the table engine of toolkit/sql (SQLite; SQLITE_LIBS is
# on the ltt command's link line in the Makefile), `ltt export --format=rows`, and the fleet test
# against a real ClickHouse (doc/fleet.md): `make deps-fleet` installs Debian's
# clickhouse-server and clickhouse-client, `make check-fleet` installs them (as every target installs
# what it needs) and runs tests/fleet/clickhouse.sh (never part of `make check`).
$(call obj,$(wildcard tools/sql/*.c)): CPPFLAGS += $(SQLITE_CFLAGS)

FLEET_PKGS := clickhouse-server clickhouse-client

.PHONY: deps-fleet check-fleet
deps-fleet:
	@sh mk/deps.sh $(FLEET_PKGS)
check-fleet: all $(BUILD)/tests/progs/mktrace $(BUILD)/tests/progs/app_golden
	@sh mk/deps.sh $(FLEET_PKGS)
	@$(TEST_ENV) sh tests/fleet/clickhouse.sh
