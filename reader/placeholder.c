/* PLACEHOLDER until the reader lands. */
int ltt_reader_placeholder_(void);
int ltt_reader_placeholder_(void) { return 0; }
