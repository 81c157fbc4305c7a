"""The visitor's address, for login lockouts, behind as many reverse proxies as configured."""

import ipaddress

from django.conf import settings


def client_ip(request):
    """REMOTE_ADDR, or with TRUSTED_PROXIES = N the address the outermost of the N proxies
    saw: the N-th entry from the right of X-Forwarded-For (each proxy appends the address it
    received the request from, so entries further left are whatever the client sent)."""
    remote = request.META.get("REMOTE_ADDR", "")
    count = settings.TRUSTED_PROXIES
    if not count:
        return remote
    forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [a for a in forwarded if a]
    if len(forwarded) < count:
        return remote
    candidate = forwarded[-count]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote
