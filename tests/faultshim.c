/* A test-only LD_PRELOAD shim: records what SQLite writes and syncs under one path, and can SIGKILL the
 * process at the Nth write into one file (a kill in the middle of a checkpoint).
 *
 * FAULTSHIM_PREFIX  record only files whose path starts with this (the save file, its -wal; never its -shm)
 * FAULTSHIM_LOG     append the records here: a header {op, path length, offset, length} then the path and,
 *                   for a write, its bytes. op: 'W' write, 'B' an fsync/fdatasync begins, 'S' it ended
 *                   (both with the thread's id as offset: a sync makes durable what was written before its
 *                   'B', and the box syncs on a thread of its own while its loop writes on), 'T' truncate to
 *                   offset, 'U' unlink, 'C' create or open with O_TRUNC (the file is empty from then on)
 * FAULTSHIM_SYNC_DELAY_MS  each sync of a recorded file takes this much longer (a slow SD card)
 * FAULTSHIM_SYNC_FAILS     while a file of this path exists, each sync of a recorded file fails with EIO
 * faultshim_kill_at(inode, n): from then on, the nth write into the file with that inode kills the process.
 *
 * Built by tests/test_faults_power.py with the system's C compiler.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

struct record {
    char op;
    char pad[3];
    int32_t path_length;
    int64_t offset;
    int64_t length;
};

static int log_fd = -2;
static const char *prefix;
static size_t prefix_length;
static ino_t kill_inode;
static long kill_countdown = -1;
static long sync_delay_us;
static const char *sync_fails;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static ssize_t (*real_pwrite64)(int, const void *, size_t, off64_t);
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static ssize_t (*real_write)(int, const void *, size_t);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static int (*real_ftruncate)(int, off_t);
static int (*real_ftruncate64)(int, off64_t);
static int (*real_unlink)(const char *);
static int (*real_open)(const char *, int, ...);
static int (*real_open64)(const char *, int, ...);
static int (*real_openat)(int, const char *, int, ...);

static void setup(void) {
    if (log_fd != -2) return;
    real_pwrite64 = dlsym(RTLD_NEXT, "pwrite64");
    real_pwrite = dlsym(RTLD_NEXT, "pwrite");
    real_write = dlsym(RTLD_NEXT, "write");
    real_fsync = dlsym(RTLD_NEXT, "fsync");
    real_fdatasync = dlsym(RTLD_NEXT, "fdatasync");
    real_ftruncate = dlsym(RTLD_NEXT, "ftruncate");
    real_ftruncate64 = dlsym(RTLD_NEXT, "ftruncate64");
    real_unlink = dlsym(RTLD_NEXT, "unlink");
    real_open = dlsym(RTLD_NEXT, "open");
    real_open64 = dlsym(RTLD_NEXT, "open64");
    real_openat = dlsym(RTLD_NEXT, "openat");
    const char *delay = getenv("FAULTSHIM_SYNC_DELAY_MS");
    sync_delay_us = delay ? atol(delay) * 1000 : 0;
    sync_fails = getenv("FAULTSHIM_SYNC_FAILS");
    prefix = getenv("FAULTSHIM_PREFIX");
    prefix_length = prefix ? strlen(prefix) : 0;
    const char *log = getenv("FAULTSHIM_LOG");
    log_fd = -1;
    if (log && prefix) log_fd = real_open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
}

void faultshim_kill_at(unsigned long inode, long n) {
    setup();
    kill_inode = (ino_t)inode;
    kill_countdown = n;
}

static int watched_path(const char *path) {
    if (!prefix || !path || strncmp(path, prefix, prefix_length) != 0) return 0;
    size_t n = strlen(path);
    return !(n >= 4 && strcmp(path + n - 4, "-shm") == 0);
}

/* The path of a descriptor if it is one we record, else 0. */
static int fd_path(int fd, char *out, size_t size) {
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, out, size - 1);
    if (n <= 0) return 0;
    out[n] = 0;
    return watched_path(out);
}

static void emit(char op, const char *path, int64_t offset, const void *data, int64_t length) {
    if (log_fd < 0) return;
    int saved = errno;
    struct record r = {op, {0, 0, 0}, (int32_t)strlen(path), offset, length};
    pthread_mutex_lock(&log_lock);  /* one record at a time, whichever thread writes it */
    real_write(log_fd, &r, sizeof r);
    real_write(log_fd, path, (size_t)r.path_length);
    if (op == 'W' && length > 0) real_write(log_fd, data, (size_t)length);
    pthread_mutex_unlock(&log_lock);
    errno = saved;
}

static void maybe_kill(int fd) {
    if (kill_countdown <= 0) return;
    struct stat st;
    if (fstat(fd, &st) == 0 && st.st_ino == kill_inode && --kill_countdown == 0) raise(SIGKILL);
}

static void wrote(int fd, const void *data, ssize_t done, int64_t offset) {
    char path[4096];
    if (done > 0 && fd_path(fd, path, sizeof path)) emit('W', path, offset, data, done);
}

ssize_t pwrite64(int fd, const void *data, size_t n, off64_t offset) {
    setup();
    maybe_kill(fd);
    ssize_t done = real_pwrite64(fd, data, n, offset);
    wrote(fd, data, done, offset);
    return done;
}

ssize_t pwrite(int fd, const void *data, size_t n, off_t offset) {
    setup();
    maybe_kill(fd);
    ssize_t done = real_pwrite(fd, data, n, offset);
    wrote(fd, data, done, offset);
    return done;
}

ssize_t write(int fd, const void *data, size_t n) {
    setup();
    if (fd == log_fd) return real_write(fd, data, n);
    maybe_kill(fd);
    off_t at = lseek(fd, 0, SEEK_CUR);
    ssize_t done = real_write(fd, data, n);
    if (at >= 0) wrote(fd, data, done, at);
    return done;
}

/* A sync of a recorded file: 'B' before it (what is written from then on may miss it), 'S' once it succeeded. */
static int synced(int fd, int (*real)(int)) {
    char path[4096];
    int watched = fd_path(fd, path, sizeof path);
    int64_t thread = (int64_t)syscall(SYS_gettid);
    if (watched) {
        emit('B', path, thread, NULL, 0);
        if (sync_delay_us > 0) usleep((useconds_t)sync_delay_us);
    }
    if (watched && sync_fails && access(sync_fails, F_OK) == 0) {
        errno = EIO;
        return -1;
    }
    int r = real(fd);
    if (r == 0 && watched) emit('S', path, thread, NULL, 0);
    return r;
}

int fsync(int fd) {
    setup();
    return synced(fd, real_fsync);
}

int fdatasync(int fd) {
    setup();
    return synced(fd, real_fdatasync);
}

static void truncated(int fd, int64_t size) {
    char path[4096];
    if (fd_path(fd, path, sizeof path)) emit('T', path, size, NULL, 0);
}

int ftruncate(int fd, off_t size) {
    setup();
    int r = real_ftruncate(fd, size);
    if (r == 0) truncated(fd, size);
    return r;
}

int ftruncate64(int fd, off64_t size) {
    setup();
    int r = real_ftruncate64(fd, size);
    if (r == 0) truncated(fd, size);
    return r;
}

int unlink(const char *path) {
    setup();
    int r = real_unlink(path);
    if (r == 0 && watched_path(path)) emit('U', path, 0, NULL, 0);
    return r;
}

static int opened(int fd, const char *path, int flags) {
    char real[4096];
    if (fd >= 0 && (flags & (O_CREAT | O_TRUNC)) && fd_path(fd, real, sizeof real)) {
        struct stat st;
        if ((flags & O_TRUNC) || (fstat(fd, &st) == 0 && st.st_size == 0)) emit('C', real, 0, NULL, 0);
    }
    (void)path;
    return fd;
}

int open(const char *path, int flags, ...) {
    setup();
    mode_t mode = 0;
    if (flags & O_CREAT) {
        va_list args;
        va_start(args, flags);
        mode = va_arg(args, mode_t);
        va_end(args);
    }
    return opened(real_open(path, flags, mode), path, flags);
}

int open64(const char *path, int flags, ...) {
    setup();
    mode_t mode = 0;
    if (flags & O_CREAT) {
        va_list args;
        va_start(args, flags);
        mode = va_arg(args, mode_t);
        va_end(args);
    }
    return opened(real_open64(path, flags, mode), path, flags);
}

int openat(int dir, const char *path, int flags, ...) {
    setup();
    mode_t mode = 0;
    if (flags & O_CREAT) {
        va_list args;
        va_start(args, flags);
        mode = va_arg(args, mode_t);
        va_end(args);
    }
    return opened(real_openat(dir, path, flags, mode), path, flags);
}
