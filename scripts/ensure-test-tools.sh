#!/usr/bin/env bash
# `npm test`'s set-up (npm runs it as `pretest`): the tools the tests drive or check the portal's
# files with. Installs what is missing with apt-get where it can, else stops at once with the one
# command to run.
#   chromium         the Playwright journeys (CHROMIUM_PATH picks another browser)
#   poppler-utils    pdftotext: the PDF tests read documents back
#   dcmtk            dcmftest, dcmdump: DICOM files and DICOMDIR are checked independently
#   libgdcm-tools    gdcmconv: JPEG 2000 fixtures (scripts/make-dicom-syntax-fixtures.sh) and their check
#   libarchive-tools bsdtar: the disc image is opened by another reader
#   xorriso          the disc image's ISO 9660 structure is checked
#   orthanc, orthanc-dicomweb  a real DICOM server whose DICOMweb client pushes to and pulls from the portal
#   haproxy          the load balancer in front of two portal processes (server/lifecycle/cluster.int.test.ts)
set -euo pipefail

missing=()
if [ -n "${CHROMIUM_PATH:-}" ]; then
  [ -x "$CHROMIUM_PATH" ] || { echo "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable browser." >&2; exit 1; }
else
  [ -x /usr/bin/chromium ] || missing+=(chromium)
fi
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
command -v dcmftest >/dev/null 2>&1 || missing+=(dcmtk)
command -v gdcmconv >/dev/null 2>&1 || missing+=(libgdcm-tools)
command -v bsdtar >/dev/null 2>&1 || missing+=(libarchive-tools)
command -v xorriso >/dev/null 2>&1 || missing+=(xorriso)
[ -x /usr/sbin/Orthanc ] || missing+=(orthanc)
[ -f /usr/share/orthanc/plugins/libOrthancDicomWeb.so ] || missing+=(orthanc-dicomweb)
[ -x /usr/sbin/haproxy ] || missing+=(haproxy)
[ ${#missing[@]} -eq 0 ] && exit 0

install=(apt-get install -y -qq --no-install-recommends "${missing[@]}")
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo=(sudo -n); else sudo=(none); fi
fi
if ! command -v apt-get >/dev/null 2>&1 || [ "${sudo[*]}" = none ]; then
  echo "The tests need: ${missing[*]}. Install them, e.g.: sudo ${install[*]}" >&2
  exit 1
fi
echo "Installing what the tests need: ${missing[*]}"
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" "${install[@]}"
