# SPDX-License-Identifier: BSD-3-Clause
# Footprint configuration (b), 6LoWPAN router and storing-mode RPL root: initial cache for
#   cmake -C bench/footprint/router.cmake -S . -B BUILD -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi.cmake ...
# (a)'s switches with the router functions on; a root needs no objective function (it
# computes no rank from parents) and, in storing mode, no non-storing link table.
set(TERN_CONF_IPV6_ROUTER 2 CACHE STRING "" FORCE) # router only: a root is never a host
set(TERN_CONF_IPV6_MLD 0 CACHE STRING "" FORCE)
set(TERN_CONF_IPV6_FRAG 0 CACHE STRING "" FORCE)
set(TERN_CONF_IPV6_DCACHE 0 CACHE STRING "" FORCE)
set(TERN_CONF_RPL_NS_LINKS 0 CACHE STRING "" FORCE)
set(TERN_CONF_RPL_OF0 0 CACHE STRING "" FORCE)
set(TERN_CONF_RPL_MRHOF 0 CACHE STRING "" FORCE)
set(TERN_CONF_USER_HEADER "${CMAKE_CURRENT_LIST_DIR}/tern_conf_router.h" CACHE STRING "" FORCE)
