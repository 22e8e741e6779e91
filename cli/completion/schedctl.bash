# SPDX-License-Identifier: GPL-2.0
# bash completion for schedctl(8): commands, options, disk names, the keys
# the disk's current scheduler has (set, get), scheduler names (set
# scheduler=...), list's and groups' columns and policy files.  Disks,
# keys and schedulers come from schedctl itself (list, get), so they are
# what schedctl would accept.  zsh: autoload bashcompinit && bashcompinit, then
# source this file.

_schedctl_disks()
{
	"$1" list -n -o NAME 2>/dev/null
}

# the keys "set" and "get" take for DEV, from "schedctl get -n DEV"
_schedctl_keys()
{
	"$1" get -n "$2" 2>/dev/null | while read -r key _; do
		[ "$key" = available ] || printf '%s\n' "$key"
	done
}

_schedctl_scheds()
{
	local key value
	"$1" get -n "$2" scheduler available 2>/dev/null | while read -r key value; do
		printf '%s\n' $value
	done | sort -u
}

# Does option $2 of command $1 take an argument (the next word)?
_schedctl_takes_arg()
{
	case $1:$2 in
	list:-o | list:--output | list:-c | list:--config) ;;
	groups:-o | groups:--output) ;;
	classify:-c | classify:--config | apply:-c | apply:--config) ;;
	stats:-i | stats:--interval | stats:-c | stats:--count) ;;
	monitor:-c | monitor:--count | monitor:-t | monitor:--timeout) ;;
	*) return 1 ;;
	esac
}

_schedctl()
{
	local bin=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} prev= cmd= i
	local commands="list get set classify apply check reset stats monitor groups"
	local opts dev= nargs=0

	[ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*)
			_schedctl_takes_arg "$cmd" "${COMP_WORDS[i]}" && ((i++))
			;;
		*)
			if [ -z "$cmd" ]; then
				cmd=${COMP_WORDS[i]}
			else
				[ "$nargs" -eq 0 ] && dev=${COMP_WORDS[i]}
				((nargs++))
			fi
			;;
		esac
	done
	if [ -z "$cmd" ]; then
		COMPREPLY=($(compgen -W "$commands -h --help --usage --version" -- "$cur"))
		return
	fi
	if _schedctl_takes_arg "$cmd" "$prev"; then
		case $prev in
		-c | --config)
			[ "$cmd" = stats ] || [ "$cmd" = monitor ] ||
				COMPREPLY=($(compgen -f -- "$cur"))
			;;
		-o | --output)
			local pfx=${cur%"${cur##*[,+]}"}
			local cols="NAME CLASS TRAN MODEL ROTA ZONED HWQ SCHED AVAILABLE POLICY"
			[ "$cmd" = groups ] && cols="CGROUP CGID WEIGHT SOURCE BUSY ACTIVE SERVED"
			COMPREPLY=($(compgen -P "$pfx" -W "$cols" -- "${cur##*[,+]}"))
			compopt -o nospace 2>/dev/null
			;;
		esac
		return
	fi
	case $cmd in
	list) opts="-J --json -o --output -a --all -n --noheadings -c --config" ;;
	get) opts="-J --json -n --noheadings" ;;
	set) opts="--dry-run" ;;
	classify) opts="-J --json -c --config" ;;
	apply) opts="--dry-run -J --json -q --quiet -s --syslog -u --udev -c --config" ;;
	check) opts="-q --quiet" ;;
	reset) opts="--dry-run -q --quiet -s --syslog" ;;
	stats) opts="-J --json -n --noheadings -i --interval -c --count --openmetrics --prometheus" ;;
	monitor) opts="-J --json -c --count -t --timeout" ;;
	groups) opts="-J --json -n --noheadings -o --output" ;;
	*) return ;;
	esac
	opts="$opts -h --help --usage"
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		return
	fi
	case $cmd in
	check)
		COMPREPLY=($(compgen -f -- "$cur"))
		;;
	apply | reset)
		COMPREPLY=($(compgen -W "$(_schedctl_disks "$bin")" -- "$cur"))
		;;
	classify | stats | groups)
		[ "$nargs" -eq 0 ] && COMPREPLY=($(compgen -W "$(_schedctl_disks "$bin")" -- "$cur"))
		;;
	get)
		if [ "$nargs" -eq 0 ]; then
			COMPREPLY=($(compgen -W "$(_schedctl_disks "$bin")" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(_schedctl_keys "$bin" "$dev")" -- "$cur"))
		fi
		;;
	set)
		if [ "$nargs" -eq 0 ]; then
			COMPREPLY=($(compgen -W "$(_schedctl_disks "$bin")" -- "$cur"))
		elif [[ $cur == scheduler=* ]]; then
			local v=${cur#scheduler=}
			local pfx=${v%"${v##*,}"}
			COMPREPLY=($(compgen -P "scheduler=$pfx" -W "$(_schedctl_scheds "$bin" "$dev")" -- "${v##*,}"))
		elif [[ $cur != *=* ]]; then
			COMPREPLY=($(compgen -S = -W "$(_schedctl_keys "$bin" "$dev")" -- "$cur"))
			compopt -o nospace 2>/dev/null
		fi
		;;
	esac
}
complete -F _schedctl schedctl
