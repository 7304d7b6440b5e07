/* podip: the advertised address is this host's own (see podip.h). */
#include "podip.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* True when sa is an address of family (AF_INET or AF_INET6) equal to addr. */
static bool same_addr(const struct sockaddr *sa, int family, const void *addr)
{
    if (sa == NULL || sa->sa_family != family)
        return false;
    if (family == AF_INET)
        return memcmp(&((const struct sockaddr_in *)(const void *)sa)->sin_addr, addr,
                      sizeof(struct in_addr)) == 0;
    return memcmp(&((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, addr,
                  sizeof(struct in6_addr)) == 0;
}

enum podip_verdict podip_check(const char *ip, int *family, char *why, size_t whylen)
{
    struct in_addr a4;
    struct in6_addr a6;
    struct ifaddrs *list = NULL;
    const void *addr;
    bool found = false;
    int fam;

    if (inet_pton(AF_INET, ip, &a4) == 1) {
        fam = AF_INET;
        addr = &a4;
        if (a4.s_addr == htonl(INADDR_ANY))
            return PODIP_WILDCARD;
        /* 127.0.0.0/8 is this host's by definition. */
        if ((ntohl(a4.s_addr) >> 24) == 127) {
            *family = fam;
            return PODIP_OK;
        }
    } else if (inet_pton(AF_INET6, ip, &a6) == 1) {
        fam = AF_INET6;
        addr = &a6;
        if (IN6_IS_ADDR_UNSPECIFIED(&a6))
            return PODIP_WILDCARD;
        if (IN6_IS_ADDR_LOOPBACK(&a6)) {
            *family = fam;
            return PODIP_OK;
        }
    } else {
        return PODIP_MALFORMED;
    }
    if (getifaddrs(&list) != 0) {
        (void)snprintf(why, whylen, "cannot list this host's addresses: %s", strerror(errno));
        return PODIP_UNKNOWN;
    }
    for (const struct ifaddrs *i = list; i != NULL && !found; i = i->ifa_next)
        found = same_addr(i->ifa_addr, fam, addr);
    freeifaddrs(list);
    if (!found)
        return PODIP_NOT_LOCAL;
    *family = fam;
    return PODIP_OK;
}
