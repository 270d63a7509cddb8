#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/cluster/fabemu-net.sh - the emulated RoCE leaf-spine fabric of tests/cluster/fabemu.sh
# (sourced; run as root in the Soft-RoCE VM of scripts/ci/rxe-vm.sh).
#
# FE_LEAVES leaves of FE_PER hosts, FE_SPINES spines, every leaf cabled to every spine. The
# hosts are netdevs fab0..fab(N-1) in the initial network namespace (rxe's UDP socket lives
# there on Debian 12's kernel), each with an rxe device rfabI on it; the leaves and spines are
# Linux routers in network namespaces (fe-leafL, fe-spineS), joined by veth pairs (a "cable").
#   host I:       fabI 10.30.I.2/30   <->  fe-leafL: hI 10.30.I.1/30   (L = I / FE_PER; a
#                 point-to-point link to the leaf, as on routed RoCE fabrics)
#   leaf L, spine S:  fe-leafL: uS 10.31.(10L+S).1/24 <-> fe-spineS: dL 10.31.(10L+S).2/24
# Source-based routing in the initial namespace: a rule per host address (iif lo: traffic
# this machine sends) looks up a table whose one route leaves by that host's veth, ahead of
# the local table, so traffic between two local addresses crosses the fabric; accept_local
# lets a packet whose source is a local address in.
# Routing from a leaf to another leaf's host (fe_route MODE):
#   ecmp   a multipath route over every spine; fib_multipath_hash_policy=1 (L4: the UDP
#          source port, one per QP, picks the spine)
#   dmodk  one spine a destination: the destination's place on its leaf mod FE_SPINES, as
#          InfiniBand's fat-tree routing spreads by LID and as gdrperf's routing model
#          assumes (src/cluster/fabric_route.c)

FE_LEAVES=${FE_LEAVES:-3}
FE_PER=${FE_PER:-4}
FE_SPINES=${FE_SPINES:-2}
fe_n=$((FE_LEAVES * FE_PER))

fe_leaf_of() { echo $(($1 / FE_PER)); }

# fe_mac NS DEV: DEV's MAC address in namespace NS ("": the initial one)
fe_mac() { ip ${1:+-n "$1"} -o link show dev "$2" | sed -n 's/.* link\/ether \([0-9a-f:]*\) .*/\1/p'; }

# fe_neigh NS1 DEV1 IP1 NS2 DEV2 IP2: the two ends of a cable know each other's MAC for good
# (no ARP: under a loaded emulation a resolution can time out while a QP connects)
fe_neigh()
{
	local m1 m2
	m1=$(fe_mac "$1" "$2") && m2=$(fe_mac "$4" "$5") && [[ -n $m1 && -n $m2 ]] &&
		ip ${1:+-n "$1"} neigh replace "$6" lladdr "$m2" dev "$2" nud permanent &&
		ip ${4:+-n "$4"} neigh replace "$3" lladdr "$m1" dev "$5" nud permanent
}

# fe_build: the namespaces, cables, addresses, rxe devices and the hosts' rules
fe_build()
{
	local i l s t
	# rxe sends a QP's window as one burst; a veth hands each packet to the receiving CPU's
	# backlog (netdev_max_backlog, 1000), which would drop most of it at each hop
	sysctl -qw net.core.netdev_max_backlog=100000 || return 1
	sysctl -qw net.ipv4.conf.all.accept_local=1 net.ipv4.conf.all.rp_filter=0 \
		net.ipv4.conf.default.rp_filter=0 net.ipv4.conf.default.accept_local=1 || return 1
	for ((l = 0; l < FE_LEAVES; l++)); do ip netns add "fe-leaf$l" || return 1; done
	for ((s = 0; s < FE_SPINES; s++)); do ip netns add "fe-spine$s" || return 1; done
	for t in $(ip netns list | awk '$1 ~ /^fe-/ { print $1 }'); do
		ip netns exec "$t" sysctl -qw net.ipv4.ip_forward=1 net.ipv4.conf.all.rp_filter=0 \
			net.ipv4.fib_multipath_hash_policy=1 || return 1
		ip -n "$t" link set lo up
	done
	for ((i = 0; i < fe_n; i++)); do
		l=$(fe_leaf_of $i)
		ip link add "fab$i" type veth peer name "h$i" netns "fe-leaf$l" || return 1
		ip addr add "10.30.$i.2/30" dev "fab$i"
		ip -n "fe-leaf$l" addr add "10.30.$i.1/30" dev "h$i"
		sysctl -qw "net.ipv4.conf.fab$i.accept_local=1" "net.ipv4.conf.fab$i.rp_filter=0"
		ip link set "fab$i" up
		ip -n "fe-leaf$l" link set "h$i" up
		ip route add default via "10.30.$i.1" dev "fab$i" table $((100 + i))
		ip rule add pref $((100 + i)) from "10.30.$i.2" iif lo lookup $((100 + i))
		rdma link add "rfab$i" type rxe netdev "fab$i" || return 1
		fe_neigh "" "fab$i" "10.30.$i.2" "fe-leaf$l" "h$i" "10.30.$i.1" || return 1
	done
	# the local table after the hosts' rules
	ip rule add pref 1000 lookup local && ip rule del pref 0 lookup local || return 1
	for ((l = 0; l < FE_LEAVES; l++)); do
		for ((s = 0; s < FE_SPINES; s++)); do
			ip -n "fe-leaf$l" link add "u$s" type veth peer name "d$l" netns "fe-spine$s" ||
				return 1
			ip -n "fe-leaf$l" addr add "10.31.$((10 * l + s)).1/24" dev "u$s"
			ip -n "fe-spine$s" addr add "10.31.$((10 * l + s)).2/24" dev "d$l"
			ip -n "fe-leaf$l" link set "u$s" up
			ip -n "fe-spine$s" link set "d$l" up
			fe_neigh "fe-leaf$l" "u$s" "10.31.$((10 * l + s)).1" \
				"fe-spine$s" "d$l" "10.31.$((10 * l + s)).2" || return 1
		done
	done
	# a spine reaches each host by that host's leaf
	for ((s = 0; s < FE_SPINES; s++)); do
		for ((i = 0; i < fe_n; i++)); do
			l=$(fe_leaf_of $i)
			ip -n "fe-spine$s" route add "10.30.$i.0/24" via "10.31.$((10 * l + s)).1" || return 1
		done
	done
}

# fe_route MODE: (re)write the leaves' routes to the other leaves' hosts
fe_route()
{
	local mode=$1 i l s hops
	for ((l = 0; l < FE_LEAVES; l++)); do
		for ((i = 0; i < fe_n; i++)); do
			[[ $(fe_leaf_of $i) -eq $l ]] && continue
			if [[ $mode == ecmp ]]; then
				hops=()
				for ((s = 0; s < FE_SPINES; s++)); do
					hops+=(nexthop via "10.31.$((10 * l + s)).2" dev "u$s")
				done
				ip -n "fe-leaf$l" route replace "10.30.$i.0/24" "${hops[@]}" || return 1
			else
				s=$(((i % FE_PER) % FE_SPINES))
				ip -n "fe-leaf$l" route replace "10.30.$i.0/24" \
					via "10.31.$((10 * l + s)).2" dev "u$s" || return 1
			fi
		done
	done
}

# fe_links FILE: the fabric as a --topology=links: file, host $(hostname), its rails fab0..
fe_links()
{
	local i l s h
	h=$(hostname)
	{
		echo "# tests/cluster/fabemu-net.sh: host:netdev switch:port, switch:port switch:port"
		for ((i = 0; i < fe_n; i++)); do
			echo "$h:fab$i leaf$(fe_leaf_of $i):$((i % FE_PER + 1))"
		done
		for ((l = 0; l < FE_LEAVES; l++)); do
			for ((s = 0; s < FE_SPINES; s++)); do
				echo "leaf$l:$((FE_PER + 1 + s)) spine$s:$((l + 1))"
			done
		done
	} >"$1"
}

# fe_cable_name L S: the cable as gdrperf's blame names it
fe_cable_name() { echo "leaf$1[$((FE_PER + 1 + $2))] - spine$2[$(($1 + 1))]"; }

# fe_slow L S RATE: slow the cable leaf L - spine S both ways (netem rate, a deep queue: no drop)
fe_slow()
{
	ip netns exec "fe-leaf$1" tc qdisc replace dev "u$2" root netem rate "$3" limit 100000 &&
		ip netns exec "fe-spine$2" tc qdisc replace dev "d$1" root netem rate "$3" limit 100000
}

# fe_unslow L S
fe_unslow()
{
	ip netns exec "fe-leaf$1" tc qdisc del dev "u$2" root 2>/dev/null
	ip netns exec "fe-spine$2" tc qdisc del dev "d$1" root 2>/dev/null
	return 0
}

# fe_spine_pkts: "S L TX" per spine-to-leaf cable end: packets the spine sent down it
fe_spine_pkts()
{
	local s l
	for ((s = 0; s < FE_SPINES; s++)); do
		for ((l = 0; l < FE_LEAVES; l++)); do
			echo "$s $l $(ip netns exec "fe-spine$s" cat "/sys/class/net/d$l/statistics/tx_packets")"
		done
	done
}

# fe_teardown: the namespaces, rxe devices, rules and veths gone; the local table first again
fe_teardown()
{
	local i t
	for ((i = 0; i < fe_n; i++)); do
		rdma link delete "rfab$i" 2>/dev/null
		ip rule del pref $((100 + i)) 2>/dev/null
		ip link del "fab$i" 2>/dev/null
	done
	ip rule add pref 0 lookup local 2>/dev/null && ip rule del pref 1000 lookup local 2>/dev/null
	for t in $(ip netns list | awk '$1 ~ /^fe-/ { print $1 }'); do ip netns del "$t"; done
	return 0
}

# fe_gid I: the index of rfabI's IPv4 GID (::ffff:10.30.I.2)
fe_gid()
{
	local g want
	want=$(printf '0000:0000:0000:0000:0000:ffff:0a1e:%02x02' "$1")
	for g in "/sys/class/infiniband/rfab$1/ports/1/gids/"*; do
		[[ $(cat "$g" 2>/dev/null) == "$want" ]] && { basename "$g"; return 0; }
	done
	return 1
}

# fe_drops: packets the CPUs' backlogs dropped since boot (/proc/net/softnet_stat, column 2)
fe_drops()
{
	local d=0 x
	while read -r _ x _; do d=$((d + 16#$x)); done </proc/net/softnet_stat
	echo $d
}
