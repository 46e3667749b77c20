/* Internals shared by archive.c (unpacking) and archive_pack.c (packing). */
#ifndef LTT_READER_ARCHIVE_INT_H
#define LTT_READER_ARCHIVE_INT_H

#include <signal.h>
#include <stddef.h>

/* Set by ltt_archive_interrupt() from a signal handler; polled between data blocks. */
extern volatile sig_atomic_t ltt_archive_stop_;

/* snprintf into err when err is not NULL. */
void ltt_archive_err_(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Removes a directory tree without following symbolic links; 0 or -errno. */
int ltt_archive_remove_tree_(const char *path);

/* Private directories (archive_private.c): registered from creation to removal, so that they are
 * removed at exit() and on fatal default-action signals too. */
void ltt_archive_private_register_(const char *base);
void ltt_archive_private_unregister_(const char *base);

#endif
