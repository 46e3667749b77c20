/* SPDX-License-Identifier: MIT */
/* System call names by number, for the machines whose numbering ltt knows: x86_64 (also when the
 * machine is not given) and i386 (i386 to i686: the 2004 traces). */
#ifndef LTT_COMMON_SYSCALL_NAMES_H
#define LTT_COMMON_SYSCALL_NAMES_H

#include <stdint.h>

/* The name of system call nr ("read") on machine (system.xml's machine attribute, "x86_64"), or NULL
 * when not known. */
const char *syscall_name(const char *machine, uint32_t nr);
/* The number of system call name on machine (NULL: x86_64), or -1 when not known. */
int syscall_number(const char *machine, const char *name);
/* How many arguments system call nr takes on machine (NULL: x86_64): 0 to 6; 6 when not known. */
int syscall_nargs(const char *machine, uint32_t nr);

#endif
