"""Webhook targets judged as the addresses they reach, not as they are spelled: an IPv6
address that carries an IPv4 address (IPv4-compatible, IPv4-mapped, IPv4-translated,
NAT64, 6to4, Teredo) reaches that IPv4 address through a dual-stack socket, a NAT64
gateway or a tunnel, so it is refused when the IPv4 address inside is. A name is
resolved at each delivery, by a resolver the test hands the sender, and is never
called when any of its addresses is refused.

The receiver is a real HTTP server on 127.0.0.1: a delivery wrongly let through reaches
it, and the tests count what it got."""

from __future__ import annotations

import ipaddress
import socket
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from core.webhooks import NoDeliveryRunner
from service.app import create_app
from stores.platform import Platform
from tests.api.test_webhooks import HOOKS, make_platform, register, webhook_keys
from tests.webhook_receiver import Receiver
from workers.webhooks import deliver

# What the refusal says of each IPv4 address it names.
REFUSED_IPV4 = {
    "127.0.0.1": "a loopback address",
    "127.255.255.254": "a loopback address",
    "10.0.0.1": "a private address",
    "10.255.255.254": "a private address",
    "172.16.0.1": "a private address",
    "172.31.255.254": "a private address",
    "192.168.0.1": "a private address",
    "192.168.255.254": "a private address",
    "169.254.169.254": "the link-local address where cloud metadata services answer",
    "169.254.0.1": "a link-local address",
    "100.64.0.1": "a shared address, used inside carrier-grade NAT",
    "100.127.255.254": "a shared address, used inside carrier-grade NAT",
    "0.0.0.0": "an address of this host on this network",
    "0.1.2.3": "an address of this host on this network",
}
PUBLIC_IPV4 = ("8.8.8.8", "93.184.216.34", "1.1.1.1")
TEREDO_PUBLIC_SERVER = "4136:e378"  # 65.54.227.120, RFC 4380's example server


def carrying(ipv4: str) -> list[tuple[str, str]]:
    """``ipv4`` inside every IPv6 form that carries one, each in more than one spelling
    (compressed, expanded, upper case, a dotted-quad tail): (the form, the URL's host)."""
    packed = int(ipaddress.IPv4Address(ipv4))
    high, low = packed >> 16, packed & 0xFFFF
    inverted_high, inverted_low = high ^ 0xFFFF, low ^ 0xFFFF
    return [
        ("IPv4-compatible", f"[::{ipv4}]"),
        ("IPv4-compatible", f"[0:0:0:0:0:0:{high:x}:{low:x}]"),
        ("IPv4-mapped", f"[::ffff:{ipv4}]"),
        ("IPv4-mapped", f"[0000:0000:0000:0000:0000:FFFF:{high:04X}:{low:04X}]"),
        ("IPv4-translated", f"[::ffff:0:{ipv4}]"),
        ("IPv4-translated", f"[0:0:0:0:FFFF:0:{high:x}:{low:x}]"),
        ("NAT64", f"[64:ff9b::{ipv4}]"),
        ("NAT64", f"[64:FF9B::{high:X}:{low:X}]"),
        ("NAT64", f"[0064:ff9b:0000:0000:0000:0000:{high:04x}:{low:04x}]"),
        ("local-use NAT64", f"[64:ff9b:1::{ipv4}]"),
        ("local-use NAT64", f"[64:FF9B:1:0:0:0:{high:X}:{low:X}]"),
        ("6to4", f"[2002:{high:x}:{low:x}::]"),
        ("6to4", f"[2002:{high:X}:{low:X}:0:0:0:0:1]"),
        ("Teredo client", f"[2001:0:{TEREDO_PUBLIC_SERVER}:8000:63bf:{inverted_high:x}:{inverted_low:x}]"),
        ("Teredo server", f"[2001:0:{high:x}:{low:x}:8000:63bf:f7f7:f7f7]"),  # its client is 8.8.8.8
    ]


def bare(host: str) -> ipaddress.IPv6Address:
    return ipaddress.IPv6Address(host.strip("[]"))


@pytest.fixture(scope="module")
def public_only() -> Platform:
    """No allow-list: production's default."""
    return make_platform(allow=())


def refusal(platform: Platform, url: str) -> str:
    """The detail of the refusal of registering ``url``; fails when it is registered."""
    before = sorted(webhook_keys(platform))
    with pytest.raises(Exception, match="does not call") as refused:
        platform.webhooks.register("pl_" + uuid.uuid4().hex, url, None)
    assert getattr(refused.value, "code", None) == "invalid_request"
    assert sorted(webhook_keys(platform)) == before
    return str(getattr(refused.value, "detail", ""))


# -- registering -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ipv4", "form", "host"), [(ipv4, form, host) for ipv4 in REFUSED_IPV4 for form, host in carrying(ipv4)]
)
def test_every_form_carrying_a_refused_ipv4_address_is_refused_and_says_why(
    public_only: Platform, ipv4: str, form: str, host: str
) -> None:
    detail = refusal(public_only, f"http://{host}/hook")
    address = bare(host)
    if address == ipaddress.IPv6Address("::"):  # ::0.0.0.0, refused as itself
        assert ":: is the unspecified address" in detail
        return
    assert f"{address} is the {form} form of {ipv4}, {REFUSED_IPV4[ipv4]}" in detail, detail
    assert detail.endswith("(it calls public addresses only).")


@pytest.mark.parametrize(
    "host",
    [host for ipv4 in PUBLIC_IPV4 for form, host in carrying(ipv4) if form in ("IPv4-mapped", "NAT64", "6to4")],
)
def test_the_globally_reachable_forms_of_a_public_ipv4_address_are_accepted(public_only: Platform, host: str) -> None:
    url = f"https://{host}:8443/hook"
    assert public_only.webhooks.register("pl_" + uuid.uuid4().hex, url, None)["url"] == url


@pytest.mark.parametrize(
    ("form", "why"),
    [
        ("IPv4-compatible", "an IPv4-compatible address, a form deprecated since 2006 (RFC 4291)"),
        ("IPv4-translated", "an IPv4-translated address, a form of the obsolete SIIT (RFC 2765)"),
        ("local-use NAT64", "a local-use NAT64 address (64:ff9b:1::/48), which reaches IPv4 addresses of its own"),
        ("Teredo client", "a Teredo address (2001::/32), a tunnel to the IPv4 addresses inside it"),
        ("Teredo server", "a Teredo address (2001::/32), a tunnel to the IPv4 addresses inside it"),
    ],
)
@pytest.mark.parametrize("ipv4", PUBLIC_IPV4)
def test_a_form_that_is_not_globally_reachable_itself_is_refused_whatever_it_carries(
    public_only: Platform, ipv4: str, form: str, why: str
) -> None:
    """The deprecated IPv4-compatible and IPv4-translated forms, the local-use NAT64
    prefix (RFC 8215: not globally reachable) and Teredo (2001::/32, among the IETF's
    protocol assignments that IANA lists as not globally reachable) are refused even
    around 8.8.8.8."""
    for named, host in carrying(ipv4):
        if named == form:
            assert f"{bare(host)} is {why}" in refusal(public_only, f"http://{host}/hook")


def test_a_refused_target_is_a_422_problem_naming_the_address_and_why() -> None:
    p = make_platform(allow=())
    client = create_app(p.config, p).test_client()
    _, ann = register(client, "ann")
    answer = client.post(HOOKS, json={"url": "http://[64:FF9B::169.254.169.254]/latest/meta-data"}, headers=ann)
    problem = answer.get_json()
    assert answer.status_code == 422 and answer.mimetype == "application/problem+json"
    assert problem["code"] == "invalid_request" and "http:// or https://" in problem["rule"]
    assert problem["detail"] == (
        "The webhook URL names a host this service does not call: 64:ff9b::a9fe:a9fe is the NAT64 form of "
        "169.254.169.254, the link-local address where cloud metadata services answer "
        "(it calls public addresses only)."
    )
    assert webhook_keys(p) == []


def test_teredo_is_judged_by_its_server_and_by_its_inverted_client() -> None:
    """RFC 4380's example: server 65.54.227.120, client 192.0.2.45 (its bits inverted)."""
    detail = refusal(make_platform(allow=()), "http://[2001:0:4136:E378:8000:63BF:3FFF:FDD2]/")
    assert "the Teredo client form of 192.0.2.45" in detail
    detail = refusal(make_platform(allow=()), "http://[2001:0:a00:1:8000:63bf:3fff:fdd2]/")
    assert "the Teredo server form of 10.0.0.1, a private address" in detail


# -- the operator's allow-list -------------------------------------------------------


@pytest.mark.parametrize(
    "host",
    [
        "10.1.2.3",
        "[::ffff:10.1.2.3]",
        "[::ffff:0:10.1.2.3]",
        "[::10.1.2.3]",
        "[64:ff9b::a01:203]",
        "[2002:a01:203::1]",
        "[2001:0:a01:1:8000:63bf:f5fe:fdfc]",  # a Teredo server and client both in 10.1.0.0/16
    ],
)
def test_listing_an_ipv4_network_admits_the_forms_that_carry_its_addresses(host: str) -> None:
    p = make_platform(allow=("10.1.0.0/16",))
    url = f"http://{host}/hook"
    assert p.webhooks.register("pl_x", url, None)["url"] == url


@pytest.mark.parametrize(
    ("host", "why"),
    [
        ("[::ffff:10.2.0.1]", "::ffff:a02:1 is in none of the listed networks"),
        ("[64:ff9b::10.2.0.1]", "64:ff9b::a02:1 is in none of the listed networks"),
        ("[2002:a02:1::]", "2002:a02:1:: is in none of the listed networks"),
        # A Teredo client in the list, its server not.
        ("[2001:0:4136:e378:8000:63bf:f5fe:fdfc]", "2001:0:4136:e378:8000:63bf:f5fe:fdfc is in none of the listed"),
        # Where a local-use NAT64 gateway puts the IPv4 address is its own choice (RFC 6052):
        # only listing the IPv6 network admits it.
        ("[64:ff9b:1::10.1.2.3]", "64:ff9b:1::a01:203 is in none of the listed networks"),
        ("[64:ff9b::8.8.8.8]", "64:ff9b::808:808 is in none of the listed networks"),  # a list admits what it names
    ],
)
def test_listing_an_ipv4_network_admits_no_form_carrying_an_address_outside_it(host: str, why: str) -> None:
    assert why in refusal(make_platform(allow=("10.1.0.0/16",)), f"http://{host}/hook")


def test_listing_an_ipv6_network_admits_the_addresses_in_it() -> None:
    p = make_platform(allow=("64:ff9b:1::/48",))
    assert p.webhooks.register("pl_x", "http://[64:ff9b:1::10.1.2.3]/", None)
    assert "none of the listed networks" in refusal(p, "http://[64:ff9b::10.1.2.3]/")


# -- delivering to a name ----------------------------------------------------------


@dataclass
class FakeDNS:
    """A resolver answering as ``socket.getaddrinfo`` does, from ``answers`` (a name's
    addresses, which a test may re-point), and keeping what it was asked."""

    answers: dict[str, list[str]]
    asked: list[str] = field(default_factory=list)

    def __call__(self, host: str, port: int, *, type: int) -> list[tuple[Any, ...]]:
        self.asked.append(host)
        if host not in self.answers:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        found: list[tuple[Any, ...]] = []
        for text in self.answers[host]:
            address = ipaddress.ip_address(text)
            if address.version == 6:
                found.append((socket.AF_INET6, type, 6, "", (str(address), port, 0, 0)))
            else:
                found.append((socket.AF_INET, type, 6, "", (str(address), port)))
        return found


NAME = "hooks.example.test"  # .test is never in the DNS (RFC 6761): only FakeDNS answers it


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver().start()
    yield r
    r.stop()


def named_hook(platform: Platform, receiver: Receiver) -> str:
    """A webhook at ``NAME`` on the receiver's port; its player's id."""
    assert receiver.server is not None
    player = "pl_" + uuid.uuid4().hex
    platform.webhooks.runner = NoDeliveryRunner()
    created = platform.webhooks.register(player, f"http://{NAME}:{receiver.server.server_address[1]}/hook", None)
    receiver.secrets["/hook"] = created["secret"]
    return player


def notice(platform: Platform, player: str, message: str) -> str:
    [started] = platform.webhooks.notify([(player, {"type": "chat", "game": "g", "message": {"id": message}})])
    return started


def refused_error(platform: Platform, delivery: str) -> str:
    found = platform.webhooks.delivery(delivery)
    assert found is not None and found.status == "failed" and found.attempts == 1 and found.code is None
    assert found.error is not None and found.error.startswith("refused: ")
    return found.error


# The allow-list lists the name and loopback: the receiver's 127.0.0.1 is admitted, so a
# delivery that ignored the refused address beside it would reach the receiver.
ALONGSIDE_THE_RECEIVER = ("hooks.example.test", "127.0.0.0/8")


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        (["64:ff9b::169.254.169.254"], "the NAT64 form of 169.254.169.254, the link-local address where cloud"),
        (["127.0.0.1", "64:ff9b::a9fe:a9fe"], "the NAT64 form of 169.254.169.254"),
        (["::ffff:10.0.0.1", "127.0.0.1"], "the IPv4-mapped form of 10.0.0.1, a private address"),
        (["127.0.0.1", "2002:c0a8:101::"], "the 6to4 form of 192.168.1.1, a private address"),
        (["127.0.0.1", "::ffff:0:6440:1"], "the IPv4-translated form of 100.64.0.1, a shared address"),
        (["127.0.0.1", "::ac10:1"], "the IPv4-compatible form of 172.16.0.1, a private address"),
        (["127.0.0.1", "2001:0:4136:e378:8000:63bf:f5ff:fffe"], "the Teredo client form of 10.0.0.1"),
        (["127.0.0.1", "64:ff9b:1::7f00:1"], "a local-use NAT64 address"),
        (["127.0.0.1", "2002::1"], "the 6to4 form of 0.0.0.0"),
        (["127.0.0.1", "10.0.0.1"], "a private address"),
    ],
)
def test_a_name_with_any_refused_address_is_never_called(receiver: Receiver, answer: list[str], why: str) -> None:
    p = make_platform(allow=ALONGSIDE_THE_RECEIVER)
    player = named_hook(p, receiver)
    dns = FakeDNS({NAME: answer})
    delivery = notice(p, player, "1-0")
    assert deliver(p, delivery, resolve=dns) == "refused"
    error = refused_error(p, delivery)
    [refused] = [a for a in answer if a != "127.0.0.1"]
    assert error.startswith(
        f"refused: {NAME} resolves to {ipaddress.ip_address(refused)}, which this service does not call: "
    )
    assert why in error, error
    assert receiver.got == [] and dns.asked == [NAME]


@pytest.mark.parametrize(
    "answer", [["64:ff9b::7f00:1"], ["2002:7f00:1::"], ["::ffff:127.0.0.1"], ["93.184.216.34", "64:ff9b::127.0.0.1"]]
)
def test_by_default_a_name_resolving_to_a_form_of_loopback_is_refused_at_delivery(answer: list[str]) -> None:
    """Production's default: refused before any connection, to any of its addresses."""
    p = make_platform(allow=())
    p.webhooks.runner = NoDeliveryRunner()
    p.webhooks.register("pl_x", f"https://{NAME}/hook", None)
    delivery = notice(p, "pl_x", "1-0")
    assert deliver(p, delivery, resolve=FakeDNS({NAME: answer})) == "refused"
    assert "127.0.0.1, a loopback address (it calls public addresses only)" in refused_error(p, delivery)


def test_a_name_re_pointed_after_registration_is_refused_at_delivery(receiver: Receiver) -> None:
    """Registered while the name answered the receiver's address, and delivered there (to
    the address checked, asking for the name); re-pointed at the NAT64 form of the cloud
    metadata address, the next delivery is refused and the receiver gets nothing more."""
    p = make_platform(allow=ALONGSIDE_THE_RECEIVER)
    player = named_hook(p, receiver)
    dns = FakeDNS({NAME: ["127.0.0.1"]})
    first = notice(p, player, "1-0")
    assert deliver(p, first, resolve=dns) == "delivered"
    [sent] = receiver.got
    assert sent.delivery == first and sent.headers["Host"].startswith(f"{NAME}:") and receiver.bad_signatures == 0
    dns.answers[NAME] = ["64:ff9b::a9fe:a9fe"]
    second = notice(p, player, "2-0")
    assert deliver(p, second, resolve=dns) == "refused"
    assert "64:ff9b::a9fe:a9fe" in refused_error(p, second)
    assert len(receiver.got) == 1 and dns.asked == [NAME, NAME]


class RebindingDNS(FakeDNS):
    """Answers its first question with ``answers``, every later one with 10.0.0.1: a name
    re-pointed between a check and a connection that looked it up again."""

    def __call__(self, host: str, port: int, *, type: int) -> list[tuple[Any, ...]]:
        if self.asked:
            self.answers = {host: ["10.0.0.1"]}
        return super().__call__(host, port, type=type)


def test_the_connection_goes_to_the_address_that_was_checked(receiver: Receiver) -> None:
    """One question per attempt, and the request reaches the address it answered (a name
    under .test, which the DNS never answers, so nothing else could have led there)."""
    p = make_platform(allow=ALONGSIDE_THE_RECEIVER)
    player = named_hook(p, receiver)
    dns = RebindingDNS({NAME: ["127.0.0.1"]})
    delivery = notice(p, player, "1-0")
    assert deliver(p, delivery, resolve=dns) == "delivered"
    assert [r.delivery for r in receiver.got] == [delivery] and dns.asked == [NAME]


def test_an_address_host_is_not_looked_up(receiver: Receiver) -> None:
    p = make_platform(allow=ALONGSIDE_THE_RECEIVER)
    p.webhooks.runner = NoDeliveryRunner()
    created = p.webhooks.register("pl_x", receiver.url("/hook"), None)
    receiver.secrets["/hook"] = created["secret"]
    dns = FakeDNS({})
    assert deliver(p, notice(p, "pl_x", "1-0"), resolve=dns) == "delivered"
    assert dns.asked == [] and len(receiver.got) == 1


def test_a_name_that_does_not_resolve_is_retried(receiver: Receiver) -> None:
    p = make_platform(allow=ALONGSIDE_THE_RECEIVER)
    player = named_hook(p, receiver)
    delivery = notice(p, player, "1-0")
    assert deliver(p, delivery, resolve=FakeDNS({})) == "retrying"
    found = p.webhooks.delivery(delivery)
    assert found is not None and (found.error or "").startswith(f"OSError: cannot resolve {NAME}")
