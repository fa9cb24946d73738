"""Which webhook destinations are public: IPv6 forms that carry an IPv4 address, and URLs.

An IPv6 address can carry an IPv4 one inside it (IPv4-mapped and -compatible forms, the
NAT64 prefix, 6to4, Teredo). Such an address reaches the IPv4 host it carries, so it is
public only when that host is: ``[64:ff9b::7f00:1]`` is the loopback in disguise. The
standard library's ``is_global`` does not look inside these forms, so it is done here.
"""

from __future__ import annotations

import ipaddress
import unicodedata
from urllib.parse import urlsplit

#: NAT64's well-known prefix (RFC 6052): the IPv4 address is the last 32 bits.
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
#: NAT64's local-use prefix (RFC 8215): never globally reachable, whatever it carries.
_NAT64_LOCAL = ipaddress.IPv6Network("64:ff9b:1::/48")
#: IPv4-compatible (deprecated, RFC 4291) and IPv4-translated (RFC 2765) forms.
_COMPATIBLE = ipaddress.IPv6Network("::/96")
_TRANSLATED = ipaddress.IPv6Network("::ffff:0:0:0/96")


def embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """Every IPv4 address ``ip`` carries, by any of the embedding forms (none for a plain one)."""
    carried: list[ipaddress.IPv4Address] = []
    if ip.ipv4_mapped is not None:
        carried.append(ip.ipv4_mapped)
    if ip.sixtofour is not None:
        carried.append(ip.sixtofour)
    if ip.teredo is not None:
        carried.extend(ip.teredo)  # the relay and the client behind it
    if ip in _NAT64 or ip in _COMPATIBLE or ip in _TRANSLATED:
        carried.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    return carried


def _public_ipv4(ip: ipaddress.IPv4Address) -> bool:
    return ip.is_global and not ip.is_multicast


def public_address(address: str) -> bool:
    """True for a globally routable unicast address, looking inside IPv6 forms that carry IPv4."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv4Address):
        return _public_ipv4(ip)
    carried = embedded_ipv4(ip)
    if carried:  # the IPv4 host is the one reached; the mapped form is not "global" itself
        return all(_public_ipv4(inner) for inner in carried) and ip not in _NAT64_LOCAL
    return ip.is_global and not ip.is_multicast and ip not in _NAT64_LOCAL


def url_fault(url: str) -> str | None:
    """Why ``url`` is not a usable webhook URL as written, or None.

    Spaces and control characters are refused rather than cleaned: ``urlsplit`` silently
    drops tabs and line breaks, so the URL stored would not be the one checked. Port 0
    names no port at all.
    """
    for char in url:
        if char.isspace() or unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp", "Zs"):
            return f"a webhook URL holds no spaces or control characters (U+{ord(char):04X})"
    try:
        port = urlsplit(url).port
    except ValueError:
        return "the URL cannot be parsed"
    if port == 0:
        return "port 0 is not a port to deliver to"
    return None
