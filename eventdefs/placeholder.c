/* PLACEHOLDER until the facility model lands. */
int ltt_eventdefs_placeholder_(void);
int ltt_eventdefs_placeholder_(void) { return 0; }
