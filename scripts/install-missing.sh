# Sourced by the scripts that install what they lack (test.sh, dist.sh, wine_check.sh).
# Debian 12 packages through apt-get (as root, else through sudo) and PyPI modules
# through pip; both need the network the first time.

# need_packages [APT-OPTION...] PACKAGE...: installs the packages not installed yet.
need_packages() {
    local options=() missing=() p
    for p in "$@"; do
        if [[ $p == -* ]]; then
            options+=("$p")
        elif ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
            missing+=("$p")
        fi
    done
    ((${#missing[@]})) || return 0
    echo "installing ${missing[*]}" >&2
    local root=()
    [[ $(id -u) == 0 ]] || root=(sudo)
    "${root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    "${root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${options[@]}" \
        "${missing[@]}" >/dev/null
}

# need_python_modules MODULE...: python3 and the modules (PyPI names = module names).
# Where pip may not install for the system's Python (Debian 12 marks it externally
# managed), they go into a virtual environment, target/python, put first on PATH.
need_python_modules() {
    command -v python3 >/dev/null || need_packages python3
    if [[ -x target/python/bin/python3 ]]; then
        export PATH="$PWD/target/python/bin:$PATH"
    fi
    local missing=() m
    for m in "$@"; do
        python3 -c "import $m" 2>/dev/null || missing+=("$m")
    done
    ((${#missing[@]})) || return 0
    echo "installing the Python modules ${missing[*]}" >&2
    if python3 -m pip install --quiet "${missing[@]}" 2>/dev/null; then
        return 0
    fi
    python3 -m venv --system-site-packages target/python 2>/dev/null || {
        need_packages python3-venv
        python3 -m venv --system-site-packages target/python
    }
    target/python/bin/python3 -m pip install --quiet "${missing[@]}"
    export PATH="$PWD/target/python/bin:$PATH"
}
