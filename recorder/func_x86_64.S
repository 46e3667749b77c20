/* SPDX-License-Identifier: MIT */
/* recorder/func_x86_64.S: the -pg hooks of function tracing on x86-64 (doc/recorder.md "Function
 * tracing"). mcount is called by gcc -pg after the function's prologue (push %rbp; mov %rsp,%rbp: its
 * return address is at 8(%rbp)); __fentry__ (gcc -pg -mfentry) as its first instruction (the
 * function's return address is just above ours). Off (ltt_func_on 0) each costs one load and one
 * branch. On, the argument registers (rdi rsi rdx rcx r8 r9, rax: the vector count of a variadic
 * call, r10: the static chain, xmm0-7) are saved around ltt_func_pg_entry() (func_hooks.c), which
 * replaces the return address with ltt_func_pg_return; that one saves the return value registers
 * (rax rdx xmm0 xmm1) around ltt_func_pg_exit() and jumps to the address it gives back. */
#if defined(__x86_64__)

	.text

/* Saves the argument registers: 200 bytes, so that %rsp is 16-byte aligned for the call when it is 8
 * past a multiple of 16 at the hook's entry (mcount, called after the function's push of %rbp;
 * __fentry__ adjusts by 8 first). */
.macro SAVE_ARGS
	subq	$200, %rsp
	.cfi_adjust_cfa_offset 200
	movq	%rdi, 0(%rsp)
	movq	%rsi, 8(%rsp)
	movq	%rdx, 16(%rsp)
	movq	%rcx, 24(%rsp)
	movq	%r8, 32(%rsp)
	movq	%r9, 40(%rsp)
	movq	%rax, 48(%rsp)
	movq	%r10, 56(%rsp)
	movdqu	%xmm0, 64(%rsp)
	movdqu	%xmm1, 80(%rsp)
	movdqu	%xmm2, 96(%rsp)
	movdqu	%xmm3, 112(%rsp)
	movdqu	%xmm4, 128(%rsp)
	movdqu	%xmm5, 144(%rsp)
	movdqu	%xmm6, 160(%rsp)
	movdqu	%xmm7, 176(%rsp)
.endm

.macro RESTORE_ARGS
	movq	0(%rsp), %rdi
	movq	8(%rsp), %rsi
	movq	16(%rsp), %rdx
	movq	24(%rsp), %rcx
	movq	32(%rsp), %r8
	movq	40(%rsp), %r9
	movq	48(%rsp), %rax
	movq	56(%rsp), %r10
	movdqu	64(%rsp), %xmm0
	movdqu	80(%rsp), %xmm1
	movdqu	96(%rsp), %xmm2
	movdqu	112(%rsp), %xmm3
	movdqu	128(%rsp), %xmm4
	movdqu	144(%rsp), %xmm5
	movdqu	160(%rsp), %xmm6
	movdqu	176(%rsp), %xmm7
	addq	$200, %rsp
	.cfi_adjust_cfa_offset -200
.endm

	.globl	mcount
	.type	mcount, @function
mcount:
	.cfi_startproc
	cmpl	$0, ltt_func_on(%rip)
	jne	1f
	ret
1:	SAVE_ARGS
	movq	200(%rsp), %rdi		/* our return address: the call site in the function */
	subq	$5, %rdi		/* the call instruction */
	leaq	8(%rbp), %rsi		/* the function's return address */
	movq	%rsp, %rdx		/* the saved registers (its arguments) */
	call	ltt_func_pg_entry
	RESTORE_ARGS
	ret
	.cfi_endproc
	.size	mcount, .-mcount

	.globl	__fentry__
	.type	__fentry__, @function
__fentry__:
	.cfi_startproc
	cmpl	$0, ltt_func_on(%rip)
	jne	1f
	ret
1:	subq	$8, %rsp		/* %rsp is a multiple of 16 here (called before the function's
					 * push): 8 more, so that it is one at the call */
	.cfi_adjust_cfa_offset 8
	SAVE_ARGS
	movq	208(%rsp), %rdi		/* our return address: the function's first instruction + 5 */
	subq	$5, %rdi
	leaq	216(%rsp), %rsi		/* the function's return address, just above ours */
	movq	%rsp, %rdx		/* the saved registers (its arguments) */
	call	ltt_func_pg_entry
	RESTORE_ARGS
	addq	$8, %rsp
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.size	__fentry__, .-__fentry__

/* Library calls through the PLT (recorder/func_plt.c): a GOT slot of the program points at a stub that
 * puts its own address in r11 (not an argument register; free at a call) and jumps here. Off: to the
 * function (the word at 16 in the stub). On: as mcount (the same stack alignment: the caller's call
 * pushed its return address, nothing else), ltt_func_plt_enter() records the entry, replaces the
 * caller's return address and gives the function, which is jumped to with the arguments restored. */
	.globl	ltt_func_plt_common
	.hidden	ltt_func_plt_common
	.type	ltt_func_plt_common, @function
ltt_func_plt_common:
	.cfi_startproc
	cmpl	$0, ltt_func_on(%rip)
	jne	1f
	jmp	*16(%r11)
1:	SAVE_ARGS
	movq	%r11, %rdi		/* the stub */
	leaq	200(%rsp), %rsi		/* the caller's return address */
	movq	%rsp, %rdx		/* the saved registers (the arguments) */
	call	ltt_func_plt_enter
	movq	%rax, %r11
	RESTORE_ARGS
	jmp	*%r11
	.cfi_endproc
	.size	ltt_func_plt_common, .-ltt_func_plt_common

/* Reached by the ret of a function whose return address ltt_func_pg_entry replaced: %rsp is 16-byte
 * aligned (just past the slot). 64 bytes: rax rdx xmm0 xmm1, and at 56 the address to return to. */
	.globl	ltt_func_pg_return
	.hidden	ltt_func_pg_return
	.type	ltt_func_pg_return, @function
ltt_func_pg_return:
	.cfi_startproc
	.cfi_undefined rip
	subq	$64, %rsp
	.cfi_adjust_cfa_offset 64
	movq	%rax, 0(%rsp)
	movq	%rdx, 8(%rsp)
	movdqu	%xmm0, 16(%rsp)
	movdqu	%xmm1, 32(%rsp)
	leaq	64(%rsp), %rdi
	movq	%rsp, %rsi		/* the return value: rax at 0, xmm0 at 16 */
	call	ltt_func_pg_exit
	movq	%rax, 56(%rsp)
	movq	0(%rsp), %rax
	movq	8(%rsp), %rdx
	movdqu	16(%rsp), %xmm0
	movdqu	32(%rsp), %xmm1
	addq	$56, %rsp
	.cfi_adjust_cfa_offset -56
	ret
	.cfi_endproc
	.size	ltt_func_pg_return, .-ltt_func_pg_return

/* vfork(), ahead of the C library's (doc/recorder.md "Function tracing"): the child runs on its
 * parent's stack with its parent's thread state until it execs or exits, so its function hooks would
 * record into the parent's shadow stack under the parent's thread id. The guard of the thread's
 * function hooks (struct ltt_func_thread's guard, at 16) is set to LTT_FUNC_GUARD_VFORK around the
 * system call: the child's hooks record nothing and count what they could not record, and the parent
 * gets its guard back and adds the count to its lost events (ltt_func_vfork_parent, func_hooks.c).
 * As the C library's: the return address is kept in a register (the child may overwrite the stack),
 * and the parent's r8 (not touched by syscall) keeps the guard it had. */
	.globl	vfork
	.type	vfork, @function
vfork:
	.cfi_startproc
	movq	ltt_func_self@gottpoff(%rip), %rcx
	movq	%fs:16(%rcx), %r8
	movq	$1, %fs:16(%rcx)
	popq	%rdi
	.cfi_adjust_cfa_offset -8
	.cfi_register rip, rdi
	movl	$58, %eax		/* SYS_vfork */
	syscall
	pushq	%rdi
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset rip, 0
	testq	%rax, %rax
	jz	1f			/* the child: 0, its hooks off */
	movq	%rax, %rdi
	movq	%r8, %rsi
	subq	$8, %rsp
	.cfi_adjust_cfa_offset 8
	call	ltt_func_vfork_parent
	addq	$8, %rsp
	.cfi_adjust_cfa_offset -8
1:	ret
	.cfi_endproc
	.size	vfork, .-vfork

/* dlopen(), dlclose() ahead of the C library's (recorder/func_dl.c): while function tracing is off,
 * a jump to the C library's, the program staying dlopen's caller; while it records, a call through
 * ltt_func_dlopen / ltt_func_dlclose, which record the memory map again after it changed. */
	.globl	dlopen
	.type	dlopen, @function
dlopen:
	.cfi_startproc
	cmpl	$0, ltt_func_on(%rip)
	jne	ltt_func_dlopen
	cmpq	$0, ltt_func_real_dlopen(%rip)
	je	ltt_func_dlopen		/* before libltt's constructor: resolved there */
	jmp	*ltt_func_real_dlopen(%rip)
	.cfi_endproc
	.size	dlopen, .-dlopen

	.globl	dlclose
	.type	dlclose, @function
dlclose:
	.cfi_startproc
	cmpl	$0, ltt_func_on(%rip)
	jne	ltt_func_dlclose
	cmpq	$0, ltt_func_real_dlclose(%rip)
	je	ltt_func_dlclose		/* before libltt's constructor: resolved there */
	jmp	*ltt_func_real_dlclose(%rip)
	.cfi_endproc
	.size	dlclose, .-dlclose

#endif
	.section .note.GNU-stack,"",@progbits
