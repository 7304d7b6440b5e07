/* bench/probe's runner: runs argv N times (fork + exec from this small
 * process, so a child's ru_maxrss is its own, not a large parent's) and
 * prints one line per run: wall_us cpu_us maxrss_kib exit_code. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    char *end = NULL;
    long n = strtol(argv[1], &end, 10);
    if (*end != '\0' || n < 1)
        return 2;
    for (long i = 0; i < n; i++) {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        pid_t pid = fork();
        if (pid == 0) {
            int fd = open("/dev/null", O_RDWR);
            dup2(fd, 0);
            dup2(fd, 1);
            dup2(fd, 2);
            execv(argv[2], argv + 2);
            _exit(127);
        }
        int status = 0;
        struct rusage ru;
        if (pid < 0 || wait4(pid, &status, 0, &ru) != pid)
            return 3;
        clock_gettime(CLOCK_MONOTONIC, &b);
        long wall = (b.tv_sec - a.tv_sec) * 1000000L + (b.tv_nsec - a.tv_nsec) / 1000;
        long cpu = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000L + ru.ru_utime.tv_usec +
                   ru.ru_stime.tv_usec;
        printf("%ld %ld %ld %d\n", wall, cpu, ru.ru_maxrss,
               WIFEXITED(status) ? WEXITSTATUS(status) : 128);
    }
    return 0;
}
