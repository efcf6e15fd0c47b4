# SPDX-License-Identifier: BSD-3-Clause
# Footprint configuration (a), 6LoWPAN host: initial cache for
#   cmake -C bench/footprint/host.cmake -S . -B BUILD -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi.cmake ...
# Feature switches (include/tern/config.h, docs/BUILDING.md) and the table sizes of tern_conf_host.h.
set(TERN_CONF_IPV6_ROUTER 0 CACHE STRING "" FORCE)
set(TERN_CONF_IPV6_MLD 0 CACHE STRING "" FORCE)
set(TERN_CONF_IPV6_FRAG 0 CACHE STRING "" FORCE)
set(TERN_CONF_IPV6_DCACHE 0 CACHE STRING "" FORCE)
set(TERN_CONF_RPL 0 CACHE STRING "" FORCE)
set(TERN_CONF_RPL_NS_LINKS 0 CACHE STRING "" FORCE)
set(TERN_CONF_RPL_OF0 0 CACHE STRING "" FORCE)
set(TERN_CONF_RPL_MRHOF 0 CACHE STRING "" FORCE)
set(TERN_CONF_USER_HEADER "${CMAKE_CURRENT_LIST_DIR}/tern_conf_host.h" CACHE STRING "" FORCE)
