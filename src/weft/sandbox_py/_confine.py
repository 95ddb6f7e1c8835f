"""The kernel's walls around a Python Code child: namespaces, resource limits, Landlock and seccomp.

Runs inside the child process, before the user's code, and imports only the standard library (the child is
started as a plain script). Each layer reports whether it took effect; :func:`confine` returns their names so
the parent can refuse to run when a layer it requires is missing. Nothing here can be undone by the code that
runs afterwards: rlimits are lowered (hard limits included), and Landlock and seccomp filters can only be
tightened by a process, never loosened.
"""

from __future__ import annotations

import ctypes
import os
import resource
import struct
from typing import Any

_CLONE_NEWUSER = 0x10000000
_CLONE_NEWNET = 0x40000000
_CLONE_THREAD = 0x00010000
_PR_SET_NO_NEW_PRIVS = 38
_PR_SET_SECCOMP = 22
_SECCOMP_MODE_FILTER = 2

# Landlock (linux/landlock.h)
_SYS_LANDLOCK_CREATE_RULESET = 444
_SYS_LANDLOCK_ADD_RULE = 445
_SYS_LANDLOCK_RESTRICT_SELF = 446
_LANDLOCK_CREATE_RULESET_VERSION = 1
_LANDLOCK_RULE_PATH_BENEATH = 1
_FS_EXECUTE, _FS_WRITE_FILE, _FS_READ_FILE, _FS_READ_DIR = 1, 2, 4, 8
_FS_ALL_V1 = (1 << 13) - 1  # EXECUTE .. MAKE_SYM
_FS_REFER, _FS_TRUNCATE, _FS_IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
_FS_MAKE_CHAR, _FS_MAKE_BLOCK = 1 << 6, 1 << 11
_NET_BIND_TCP, _NET_CONNECT_TCP = 1, 2
_SCOPE_ABSTRACT_UNIX_SOCKET, _SCOPE_SIGNAL = 1, 2

# seccomp BPF (x86_64 numbers; another architecture gets no filter and says so)
_AUDIT_ARCH_X86_64 = 0xC000003E
_RET_ALLOW = 0x7FFF0000
_RET_ERRNO = 0x00050000
_RET_KILL_PROCESS = 0x80000000
_EPERM, _ENOSYS = 1, 38
_SYS_CLONE, _SYS_CLONE3 = 56, 435
#: socket creation and use of the network, new processes and programs, other processes' memory, namespaces,
#: mounts, kernel modules and keys, BPF, perf, userfaultfd and io_uring (which could do the rest behind the filter)
_DENIED_SYSCALLS = (
    41, 42, 43, 49, 50, 53, 288,  # socket connect accept bind listen socketpair accept4
    57, 58, 59, 322,  # fork vfork execve execveat
    101, 310, 311,  # ptrace process_vm_readv process_vm_writev
    272, 308, 165, 166, 155, 161,  # unshare setns mount umount2 pivot_root chroot
    175, 176, 313, 246, 320, 169, 167, 168,  # modules, kexec, reboot, swap
    248, 249, 250, 321, 298, 323, 425, 426, 427, 135,  # keys bpf perf userfaultfd io_uring personality
)  # fmt: skip

_libc: Any = None


def _syscall(number: int, *args: Any) -> int:
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    return int(_libc.syscall(ctypes.c_long(number), *args))


def confine(task: dict[str, Any]) -> list[str]:
    """Apply every layer the machine offers; the names of those that took effect."""
    layers: list[str] = []
    if _new_namespaces():
        layers.append("network-namespace")
    _limit_resources(task)
    layers.append("rlimits")
    _libc_prctl(_PR_SET_NO_NEW_PRIVS, 1)
    if _landlock(task.get("read_paths", []), task["scratch"]):
        layers.append("landlock")
    if _seccomp():
        layers.append("seccomp")
    return layers


def _libc_prctl(option: int, value: int, pointer: Any = None) -> int:
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    return int(_libc.prctl(option, ctypes.c_ulong(value), pointer, 0, 0))


def _new_namespaces() -> bool:
    """A user namespace (dropping every capability outside it, root too) with an empty network namespace:
    no interface but a down loopback, so no address can be reached even through a socket that exists."""
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    if _libc.unshare(_CLONE_NEWUSER | _CLONE_NEWNET) == 0:
        return True
    return bool(_libc.unshare(_CLONE_NEWNET) == 0)


def _limit_resources(task: dict[str, Any]) -> None:
    """Memory (address space), CPU seconds, file sizes, open files, processes and core dumps."""
    memory = int(task["memory_bytes"])
    cpu = max(1, int(task["cpu_seconds"]))
    limits = {
        resource.RLIMIT_AS: (memory, memory),
        resource.RLIMIT_CPU: (cpu, cpu + 1),  # SIGXCPU at the soft limit, SIGKILL at the hard one
        resource.RLIMIT_FSIZE: (int(task["file_size_bytes"]),) * 2,
        resource.RLIMIT_NOFILE: (64, 64),
        resource.RLIMIT_NPROC: (0, 0),  # no new process (enforced for a user without CAP_SYS_RESOURCE)
        resource.RLIMIT_CORE: (0, 0),
    }
    for which, (soft, hard) in limits.items():
        resource.setrlimit(which, (soft, hard))


def _landlock(read_paths: list[str], scratch: str) -> bool:
    """Reads only beneath ``read_paths`` (the interpreter and its libraries), reads and writes only in
    ``scratch``; no TCP bind or connect; no signal to, or abstract socket of, a process outside."""
    abi = _syscall(_SYS_LANDLOCK_CREATE_RULESET, None, ctypes.c_size_t(0), _LANDLOCK_CREATE_RULESET_VERSION)
    if abi < 1:
        return False
    handled = _FS_ALL_V1 | (_FS_REFER if abi >= 2 else 0) | (_FS_TRUNCATE if abi >= 3 else 0)
    handled |= _FS_IOCTL_DEV if abi >= 5 else 0
    net = (_NET_BIND_TCP | _NET_CONNECT_TCP) if abi >= 4 else 0
    scoped = (_SCOPE_ABSTRACT_UNIX_SOCKET | _SCOPE_SIGNAL) if abi >= 6 else 0
    attr = struct.pack("<QQQ", handled, net, scoped)[: 8 if abi < 4 else 16 if abi < 6 else 24]
    buffer = ctypes.create_string_buffer(attr, len(attr))
    ruleset = _syscall(_SYS_LANDLOCK_CREATE_RULESET, buffer, ctypes.c_size_t(len(attr)), 0)
    if ruleset < 0:
        return False
    try:
        read = _FS_EXECUTE | _FS_READ_FILE | _FS_READ_DIR
        for path in read_paths:
            _allow_beneath(ruleset, path, read)
        _allow_beneath(ruleset, scratch, handled & ~(_FS_MAKE_CHAR | _FS_MAKE_BLOCK | _FS_EXECUTE))
        return _syscall(_SYS_LANDLOCK_RESTRICT_SELF, ruleset, 0) == 0
    finally:
        os.close(ruleset)


def _allow_beneath(ruleset: int, path: str, access: int) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # a path that does not exist grants nothing
    try:
        rule = ctypes.create_string_buffer(struct.pack("<Qi", access, fd), 12)
        _syscall(_SYS_LANDLOCK_ADD_RULE, ruleset, _LANDLOCK_RULE_PATH_BENEATH, rule, 0)
    finally:
        os.close(fd)


def _bpf(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("<HBBI", code, jt, jf, k)


def _seccomp_program() -> bytes:
    """Deny the syscalls of :data:`_DENIED_SYSCALLS` (EPERM), ``clone`` except for a thread, ``clone3``
    (ENOSYS, so the C library falls back to ``clone``), and any other architecture or the x32 ABI (killed)."""
    ld_abs, jeq, jge, jset, ret = 0x20, 0x15, 0x35, 0x45, 0x06
    denied = _DENIED_SYSCALLS
    program = [
        _bpf(ld_abs, 0, 0, 4),  # seccomp_data.arch
        _bpf(jeq, 1, 0, _AUDIT_ARCH_X86_64),
        _bpf(ret, 0, 0, _RET_KILL_PROCESS),
        _bpf(ld_abs, 0, 0, 0),  # seccomp_data.nr
        _bpf(jge, 0, 1, 0x40000000),
        _bpf(ret, 0, 0, _RET_KILL_PROCESS),
        _bpf(jeq, 0, 1, _SYS_CLONE3),
        _bpf(ret, 0, 0, _RET_ERRNO | _ENOSYS),
        _bpf(jeq, 0, 4, _SYS_CLONE),
        _bpf(ld_abs, 0, 0, 16),  # args[0], low 32 bits: the clone flags
        _bpf(jset, 1, 0, _CLONE_THREAD),
        _bpf(ret, 0, 0, _RET_ERRNO | _EPERM),
        _bpf(ret, 0, 0, _RET_ALLOW),
    ]
    for index, number in enumerate(denied):
        remaining = len(denied) - index - 1
        program.append(_bpf(jeq, remaining + 1, 0, number))
    program.append(_bpf(ret, 0, 0, _RET_ALLOW))
    program.append(_bpf(ret, 0, 0, _RET_ERRNO | _EPERM))
    return b"".join(program)


def _seccomp() -> bool:
    if os.uname().machine != "x86_64":
        return False
    code = _seccomp_program()
    filters = ctypes.create_string_buffer(code, len(code))

    class _Fprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    prog = _Fprog(len(code) // 8, ctypes.cast(filters, ctypes.c_void_p))
    return _libc_prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(prog)) == 0
