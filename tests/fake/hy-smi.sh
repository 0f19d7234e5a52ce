#!/bin/sh
# hy-smi: a TEST DOUBLE for Hygon DTK's hy-smi, for hprun's tests only. Never used by default.
#
# It answers the one query hprun's loop sampler makes, `hy-smi --showmeminfo vram --csv`, with a
# header line and one card line whose last number is the VRAM in use, in bytes (1 GiB, so the
# sampled mean is 1024 MiB). Any other call prints a one-line banner, as `hy-smi` alone does for
# hprun's manifest probe. It reads no device.
case " $* " in
  *" --showmeminfo "*)
    echo "device,VRAM Total Memory (B),VRAM Total Used Memory (B)"
    echo "card0,68702699520,1073741824" ;;
  *) echo "hy-smi (hprun test double)" ;;
esac
