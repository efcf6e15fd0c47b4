# SPDX-License-Identifier: BSD-3-Clause
#
# Cross build for ARM Cortex-M3 with the GNU Arm Embedded toolchain packaged by
# Debian/Ubuntu (gcc-arm-none-eabi + libnewlib-arm-none-eabi).
#
#   cmake -S . -B build/cortex-m3 -G Ninja \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi.cmake -DCMAKE_BUILD_TYPE=MinSizeRel
#   cmake --build build/cortex-m3          # builds the portable libraries, prints their size
#
# Only the portable part of Tern (src/ and port/loop/) is built, as static
# libraries, compiled freestanding (see cmake/CrossSize.cmake and docs/BUILDING.md).
#
# Knobs (cache variables, all optional):
#   TERN_ARM_TOOLCHAIN_PREFIX  tool name prefix, default "arm-none-eabi-"
#   TERN_ARM_TOOLCHAIN_DIR     directory holding the tools, default: search PATH
#   TERN_ARM_CPU_FLAGS         default "-mthumb -mcpu=cortex-m3"

set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)

set(TERN_ARM_TOOLCHAIN_PREFIX "arm-none-eabi-" CACHE STRING "Cross tool name prefix")
set(TERN_ARM_TOOLCHAIN_DIR "" CACHE PATH "Directory of the cross tools (empty: search PATH)")
set(TERN_ARM_CPU_FLAGS "-mthumb -mcpu=cortex-m3" CACHE STRING "Target CPU flags")

# This file is read again for every try_compile: pass the knobs along.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES
     TERN_ARM_TOOLCHAIN_PREFIX TERN_ARM_TOOLCHAIN_DIR TERN_ARM_CPU_FLAGS)

if(TERN_ARM_TOOLCHAIN_DIR)
  set(_tern_arm_hints HINTS "${TERN_ARM_TOOLCHAIN_DIR}" NO_DEFAULT_PATH)
else()
  set(_tern_arm_hints "")
endif()

find_program(TERN_ARM_GCC "${TERN_ARM_TOOLCHAIN_PREFIX}gcc" ${_tern_arm_hints})
if(NOT TERN_ARM_GCC)
  message(FATAL_ERROR
    "${TERN_ARM_TOOLCHAIN_PREFIX}gcc not found. On Debian/Ubuntu run (as root):\n"
    "  apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi\n"
    "or: scripts/deps.sh test")
endif()
get_filename_component(_tern_arm_bindir "${TERN_ARM_GCC}" DIRECTORY)

set(CMAKE_C_COMPILER "${TERN_ARM_GCC}")
set(CMAKE_ASM_COMPILER "${TERN_ARM_GCC}")
# Archive with the cross binutils (CMake would guess them from the compiler's
# prefix too; being explicit keeps a host `ar` from ever being picked).
find_program(CMAKE_AR "${TERN_ARM_TOOLCHAIN_PREFIX}ar" HINTS "${_tern_arm_bindir}")
find_program(CMAKE_RANLIB "${TERN_ARM_TOOLCHAIN_PREFIX}ranlib" HINTS "${_tern_arm_bindir}")
find_program(CMAKE_NM "${TERN_ARM_TOOLCHAIN_PREFIX}nm" HINTS "${_tern_arm_bindir}")
find_program(CMAKE_OBJCOPY "${TERN_ARM_TOOLCHAIN_PREFIX}objcopy" HINTS "${_tern_arm_bindir}")
find_program(CMAKE_OBJDUMP "${TERN_ARM_TOOLCHAIN_PREFIX}objdump" HINTS "${_tern_arm_bindir}")
find_program(CMAKE_SIZE "${TERN_ARM_TOOLCHAIN_PREFIX}size" HINTS "${_tern_arm_bindir}")

# There is nothing to run on the build machine: test the compiler with a library,
# not with a program that would need startup code and a linker script.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

# -ffreestanding: __STDC_HOSTED__ is 0 and the compiler's own <stdint.h> is used.
# It implies -fno-builtin, which would turn every fixed-size memcpy (the portable
# way to read an unaligned field) into a call; -fbuiltin gives the optimisation
# back (the string.h functions keep their standard meaning in every C library).
set(CMAKE_C_FLAGS_INIT
    "${TERN_ARM_CPU_FLAGS} -Os -ffunction-sections -fdata-sections -ffreestanding -fbuiltin")
set(CMAKE_ASM_FLAGS_INIT "${TERN_ARM_CPU_FLAGS}")
# A CMAKE_C_FLAGS given on the command line replaces CMAKE_C_FLAGS_INIT: then
# cmake/CrossSize.cmake adds back whichever of these it lacks (and -Os when it
# has no -O at all) to the portable libraries.
separate_arguments(_tern_arm_cpu_list UNIX_COMMAND "${TERN_ARM_CPU_FLAGS}")
set(TERN_CROSS_REQUIRED_FLAGS ${_tern_arm_cpu_list}
    -ffunction-sections -fdata-sections -ffreestanding -fbuiltin)
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wl,--gc-sections")

# -Os for every build type: CMake's defaults (-O3 for Release, -O2 for
# RelWithDebInfo) would come after CMAKE_C_FLAGS and win. Debug keeps the
# assertions and adds -g (which does not change the size of .text).
set(CMAKE_C_FLAGS_DEBUG "-g" CACHE STRING "C flags for Debug (cross)")
set(CMAKE_C_FLAGS_RELEASE "-DNDEBUG" CACHE STRING "C flags for Release (cross)")
set(CMAKE_C_FLAGS_MINSIZEREL "-DNDEBUG" CACHE STRING "C flags for MinSizeRel (cross)")
set(CMAKE_C_FLAGS_RELWITHDEBINFO "-g -DNDEBUG" CACHE STRING "C flags for RelWithDebInfo (cross)")

# Search headers and libraries only in the target's sysroot, programs only on the host.
# Debian/Ubuntu keep the target's files in /usr/lib/arm-none-eabi; Arm's own
# tarballs in <prefix>/arm-none-eabi next to bin/.
string(REGEX REPLACE "-$" "" _tern_arm_triple "${TERN_ARM_TOOLCHAIN_PREFIX}")
get_filename_component(_tern_arm_root "${_tern_arm_bindir}/../${_tern_arm_triple}" ABSOLUTE)
set(CMAKE_FIND_ROOT_PATH "${_tern_arm_root}" "/usr/lib/${_tern_arm_triple}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
