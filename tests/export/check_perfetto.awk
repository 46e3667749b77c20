# SPDX-License-Identifier: MIT
# Checks the text that `protoc --decode=perfetto.protos.Trace tests/export/perfetto.proto` prints for
# an `ltt export --format=perfetto` file, and prints the counts the e2e test compares with ltt dump:
#   packets P tracks T begins B ends E instants I lost L counters C flows F problems N
# Problems (one line each, "check: ..."): a field the schema does not declare (protoc prints it by
# number), a TrackEvent on a track not described before, an interned id (event name, category,
# annotation name) used before it is defined, an end without its begin or a begin never ended on a
# track, a timestamp going back on a track, a flow that is not both started and terminated.
# Instants count those on thread and tracefile tracks: not the lost-events track, nor the instant
# that ends a child's flow.
function problem(s) { print "check: packet " np ": " s; nprob++ }
# Times: packets are timed on the incremental clock the first packet defines (clock_id 64, deltas
# from the previous timed packet) unless they name timestamp_clock_id 1 (REALTIME, absolute). Times
# are kept relative to the snapshot's base (awk's doubles would round nanoseconds since the Epoch):
# dsub(a, b) = a - b for decimal strings, exact while the difference is below 2^53 ns.
function dsub(a, b,   ah, al, bh, bl) {
	ah = length(a) > 9 ? substr(a, 1, length(a) - 9) : 0; al = length(a) > 9 ? substr(a, length(a) - 8) : a
	bh = length(b) > 9 ? substr(b, 1, length(b) - 9) : 0; bl = length(b) > 9 ? substr(b, length(b) - 8) : b
	return (ah - bh) * 1000000000 + (al - bl)
}
function flush_packet(   i, k, tr) {
	if (rawts != "") {
		if (clockid == 1) ts = dsub(rawts, base)
		else if (defclock == 64 && have_inc && clockid == "") { inc += rawts; ts = inc }
		else problem("timestamp on an unknown clock")
	}
	# interned data first: a packet may use what it defines
	for (i = 1; i <= nin; i++) defined[inkind[i], iniid[i]] = 1
	if (ev_type != "") {
		tr = ev_track
		if (!(tr in track)) problem("track_event on undescribed track " tr)
		if (ev_name_iid != "" && !((2, ev_name_iid) in defined)) problem("event name iid " ev_name_iid " undefined")
		for (k = 1; k <= ncat; k++) if (!((1, cat[k]) in defined)) problem("category iid " cat[k] " undefined")
		for (k = 1; k <= nan; k++) if (!((3, an[k]) in defined)) problem("annotation name iid " an[k] " undefined")
		if (ts != "" && (tr in last) && ts < last[tr]) problem("time goes back on track " tr)
		if (ts != "") last[tr] = ts
		if (ev_type == "TYPE_SLICE_BEGIN") { depth[tr]++; begins++ }
		else if (ev_type == "TYPE_SLICE_END") {
			if (depth[tr] + 0 <= 0) problem("slice end without begin on track " tr)
			else depth[tr]--
			ends++
		} else if (ev_type == "TYPE_COUNTER") {
			if (!(tr in counter_track)) problem("counter value on a track that is not a counter " tr)
			counters++
		} else if (ev_type == "TYPE_INSTANT") {
			if (trackname[tr] == "ltt: lost events") lost++
			else if (term) {} else instants++
		}
	}
	np++; nin = 0; clockid = ""; rawts = ""; ev_type = ""; ev_track = ""; ev_name_iid = ""; ncat = 0; nan = 0; ts = ""; term = 0
}
BEGIN { np = 0; nprob = 0 }
/^[ ]*[0-9]+[:{ ]/ { problem("unknown field: " $0) }
/^packet \{/ { if (started) flush_packet(); started = 1; ctx = ""; next }
{
	line = $0; sub(/^ */, "", line)
	if (line ~ /\{$/) { name = line; sub(/ *\{$/, "", name); stack[++sp] = name; ctx = stack[sp]; next }
	if (line == "}") { 
		if (stack[sp] == "track_descriptor") {
			track[td_uuid] = 1; ntracks++
			trackname[td_uuid] = td_name
			if (td_counter) counter_track[td_uuid] = 1
			td_uuid = ""; td_name = ""; td_counter = 0
		}
		if (stack[sp] == "counter" && stack[sp - 1] == "track_descriptor") td_counter = 1
		if (stack[sp] ~ /^(event_categories|event_names|debug_annotation_names)$/) {
			nin++
			inkind[nin] = stack[sp] == "event_categories" ? 1 : stack[sp] == "event_names" ? 2 : 3
			iniid[nin] = in_iid
		}
		sp--; ctx = stack[sp]; next
	}
	key = line; sub(/:.*/, "", key); val = line; sub(/^[^:]*: */, "", val)
	if (sp == 0 && key == "timestamp") rawts = val
	if (sp == 0 && key == "timestamp_clock_id") clockid = val
	if (ctx == "clocks" && key == "clock_id") clk = val
	if (ctx == "clocks" && key == "timestamp" && clk == 1) base = val
	if (ctx == "clocks" && key == "timestamp" && clk == 64) { inc = 0; have_inc = 1 }
	if (ctx == "trace_packet_defaults" && key == "timestamp_clock_id") defclock = val
	if (ctx == "track_descriptor" && key == "uuid") td_uuid = val
	if (ctx == "track_descriptor" && key == "name") { td_name = val; gsub(/"/, "", td_name) }
	if (ctx ~ /^(event_categories|event_names|debug_annotation_names)$/ && key == "iid") in_iid = val
	if (ctx == "track_event") {
		if (key == "type") ev_type = val
		if (key == "track_uuid") ev_track = val
		if (key == "name_iid") ev_name_iid = val
		if (key == "category_iids") cat[++ncat] = val
		if (key == "flow_ids") { flow_start[val]++; flows++ }
		if (key == "terminating_flow_ids") { flow_end[val]++; term = 1 }
	}
	if (ctx == "debug_annotations" && key == "name_iid") an[++nan] = val
}
END {
	if (started) flush_packet()
	for (t in depth) if (depth[t] != 0) problem(depth[t] " slices never ended on track " t)
	for (f in flow_start) if (!(f in flow_end)) problem("flow " f " never terminated")
	for (f in flow_end) if (!(f in flow_start)) problem("flow " f " terminated, never started")
	printf "packets %d tracks %d begins %d ends %d instants %d lost %d counters %d flows %d problems %d\n",
		np, ntracks, begins, ends, instants, lost, counters, flows, nprob
}
