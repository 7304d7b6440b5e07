/* The pod sandbox's process for the test cluster (no registry serves the
 * upstream pause image here): it holds the pod's namespaces, reaps the
 * zombies handed to it, and exits 0 on SIGINT or SIGTERM. */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void on_stop(int signo)
{
    (void)signo;
    _exit(0);
}

static void on_child(int signo)
{
    (void)signo;
    while (waitpid(-1, NULL, WNOHANG) > 0) {
    }
}

int main(void)
{
    struct sigaction stop = {.sa_handler = on_stop};
    struct sigaction reap = {.sa_handler = on_child, .sa_flags = SA_NOCLDSTOP};

    if (sigaction(SIGINT, &stop, NULL) != 0 || sigaction(SIGTERM, &stop, NULL) != 0 ||
        sigaction(SIGCHLD, &reap, NULL) != 0)
        return 1;
    for (;;)
        pause();
    return 1;
}
