# SPDX-License-Identifier: MIT
# babeltrace2's text output of an `ltt export --format=ctf` trace (babeltrace2 --clock-seconds),
# rewritten into ltt dump's text form without the tracefile, so that the two compare line for line
# (tests/e2e/export_ctf.sh). What it undoes: array indexes ([0] = ), the sequence lengths and union
# tags the CTF layout shows as fields (ltt_len_NAME, ltt_tag_NAME), the struct wrapping a sequence
# that is not a struct field (ltt_seq), the enum display ( "LABEL" : container = N ), and the '_'
# babeltrace2 leaves on the labels of escaped union fields.
s/^\[\([0-9.]*\)\] ([^)]*) \([^:]*\): { cpu_id = [0-9]* }\(, \)\{0,1\}/\2: \1 /
s/ *$//
s/\[[0-9]*\] = //g
s/ltt_len[a-zA-Z0-9_]* = [0-9]*, //g
s/ltt_tag[a-zA-Z0-9_]* = ( "_\{0,1\}\([^"]*\)" : container = [0-9]* ), \([a-zA-Z0-9_]*\) = { /\2 = { \1 = /g
s/( "\([^"]*\)" : container = [0-9-]* )/\1/g
s/( <unknown> : container = \([0-9-]*\) )/\1/g
s/{ ltt_seq = \(\[[^][]*\]\) }/\1/g
s/\[ \]/[]/g
