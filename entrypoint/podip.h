/*
 * podip: the check of the address a worker advertises (docs/ARCHITECTURE.md §3.2). Non-leaders
 * forward REST requests to the leader's advertised URL, so it must be this pod's own, reachable
 * address: a literal IPv4 or IPv6 address, not a wildcard, and one of this host's interface
 * addresses (or inside a loopback network).
 *
 * Contract: never prints, never exits; reads the interface list (getifaddrs) and keeps nothing.
 */
#ifndef MM2_ENTRYPOINT_PODIP_H
#define MM2_ENTRYPOINT_PODIP_H

#include <stddef.h>

enum podip_verdict {
    PODIP_OK = 0,
    PODIP_MALFORMED, /* not an IPv4 or IPv6 literal */
    PODIP_WILDCARD,  /* 0.0.0.0 or :: */
    PODIP_NOT_LOCAL, /* no interface of this host has it */
    PODIP_UNKNOWN,   /* the interface list could not be read (why says so) */
};

/* Checks ip. On PODIP_OK, *family gets AF_INET or AF_INET6; why gets a reason for
 * PODIP_UNKNOWN. */
enum podip_verdict podip_check(const char *ip, int *family, char *why, size_t whylen);

#endif
