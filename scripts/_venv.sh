# Sourced by scripts/*.sh: a project virtualenv with semloop installed in it.
apt_updated=""
apt_install() {
  if [ -z "$apt_updated" ]; then
    apt-get update -qq >/dev/null
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

ensure_venv() {
  local extra="$1"
  if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
  fi
  # Re-install only when pyproject.toml changed since the last install with this extra.
  local stamp=".venv/.semloop-$extra-$(sha256sum pyproject.toml | cut -c1-16)"
  if [ ! -e "$stamp" ]; then
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -e ".[$extra]"
    touch "$stamp"
  fi
}
