# SPDX-License-Identifier: BSD-3-Clause
#
# Cross-build checks and footprint report. Included by the top-level
# CMakeLists.txt when CMAKE_SYSTEM_NAME is Generic (cmake/arm-none-eabi.cmake);
# the same file also runs in script mode (cmake -P) for the build-time steps.
#
# 1. Header whitelist. Portable code (src/, port/loop/, include/) must compile
#    on any bare-metal C library, so it may include only:
#       <stdint.h> <stddef.h> <stdbool.h> <stdarg.h>   freestanding headers, which
#                                     C11 section 4 requires of every implementation
#                                     (stdarg.h is the only one not in the issue's list:
#                                     it comes with the compiler, not the C library)
#       <string.h> <errno.h>          hosted headers, but present in every embedded
#                                     C library (newlib, picolibc, ...)
#    and its own headers by "quoted" name, which must resolve inside the
#    repository. A computed include (#include MACRO, e.g. TERN_CONF_USER_HEADER)
#    is the user's choice and is not checked. The check runs at configure time
#    and again on every build (target tern_header_check, in ALL, before any
#    portable library compiles); a violation names file:line and fails.
#
# 2. Link check. The archives' undefined symbols must all be defined by another
#    portable library, be a <string.h> function, or belong to the compiler's
#    runtime (names starting with "__", e.g. __aeabi_uldivmod, newlib's
#    __errno). Anything else (printf, malloc, a port's function called by name)
#    fails the build. Extra names: -DTERN_CROSS_ALLOWED_UNDEFINED="a;b".
#
# 3. Size. Target tern_size (in ALL) runs arm-none-eabi-size -t on every
#    portable library (global property TERN_PORTABLE_LIBS) and prints text /
#    data / bss per object file, per library and in total, plus the largest
#    stack frames (-fstack-usage). The report is also kept in
#    <build>/tern-size.txt. Figures are of the object files before the final
#    link: with -ffunction-sections and --gc-sections an application pays only
#    for the functions it reaches, so these are upper bounds.

if(CMAKE_SCRIPT_MODE_FILE)
  cmake_minimum_required(VERSION 3.20)  # policies for `cmake -P` (IN_LIST, ...)
endif()

set(TERN_FREESTANDING_HEADERS stdint.h stddef.h stdbool.h stdarg.h string.h errno.h)

# The C11 <string.h> functions (7.24): allowed as undefined symbols.
set(TERN_STRING_H_FUNCTIONS
    memcpy memmove memcmp memchr memset strcpy strncpy strcat strncat strcmp
    strncmp strcoll strxfrm strchr strcspn strpbrk strrchr strspn strstr strtok
    strerror strlen)

# tern_check_portable_headers(<source dir> <result var>): sets <result var> to a
# list of "file:line: message" strings, empty when every include is allowed.
function(tern_check_portable_headers root result_var)
  file(GLOB_RECURSE files LIST_DIRECTORIES false
       "${root}/src/*.c" "${root}/src/*.h"
       "${root}/port/loop/*.c" "${root}/port/loop/*.h"
       "${root}/include/*.h")
  list(SORT files)
  set(quote_roots "${root}/include" "${root}/port/loop/include" "${root}/src")
  string(REPLACE ";" " " allowed_text "${TERN_FREESTANDING_HEADERS}")
  set(errors "")
  foreach(f IN LISTS files)
    file(RELATIVE_PATH rel "${root}" "${f}")
    get_filename_component(fdir "${f}" DIRECTORY)
    file(READ "${f}" content)
    # Make the text safe for CMake lists, keeping its length (offsets stay valid).
    string(REPLACE ";" "," content "${content}")
    string(REPLACE "\\" "/" content "${content}")
    set(content "\n${content}")
    string(REGEX MATCHALL "\n[ \t]*#[ \t]*include[^\n]*" lines "${content}")
    set(offset 0)
    foreach(m IN LISTS lines)
      string(SUBSTRING "${content}" ${offset} -1 tail)
      string(FIND "${tail}" "${m}" p)
      math(EXPR pos "${offset} + ${p}")
      string(LENGTH "${m}" mlen)
      math(EXPR offset "${pos} + ${mlen}")

      set(problem "")
      if(m MATCHES "^\n[ \t]*#[ \t]*include_next")
        set(problem "#include_next is not portable")
      elseif(m MATCHES "^\n[ \t]*#[ \t]*include[ \t]*<([^>]*)>")
        set(name "${CMAKE_MATCH_1}")
        if(NOT name IN_LIST TERN_FREESTANDING_HEADERS)
          set(problem "#include <${name}>: not allowed in portable code (allowed: ${allowed_text})")
        endif()
      elseif(m MATCHES "^\n[ \t]*#[ \t]*include[ \t]*\"([^\"]*)\"")
        set(name "${CMAKE_MATCH_1}")
        set(found FALSE)
        if(name IN_LIST TERN_FREESTANDING_HEADERS)
          set(found TRUE)
        else()
          foreach(dir IN ITEMS "${fdir}" ${quote_roots})
            if(EXISTS "${dir}/${name}" AND NOT IS_DIRECTORY "${dir}/${name}")
              set(found TRUE)
              break()
            endif()
          endforeach()
        endif()
        if(NOT found)
          set(problem "#include \"${name}\": not a header of the portable tree (src/, include/, port/loop/include/)")
        endif()
      endif()
      # Anything else is a computed include (#include MACRO): the user's header.

      if(problem)
        math(EXPR upto "${pos} + 1")
        string(SUBSTRING "${content}" 0 ${upto} before)
        string(REGEX MATCHALL "\n" nls "${before}")
        list(LENGTH nls line)
        list(APPEND errors "${rel}:${line}: error: ${problem}")
      endif()
    endforeach()
  endforeach()
  set(${result_var} "${errors}" PARENT_SCOPE)
endfunction()

function(tern_report_header_errors errors)
  if(errors)
    list(LENGTH errors n)
    string(REPLACE ";" "\n" text "${errors}")
    message(NOTICE "${text}")  # unformatted, so that editors can jump to file:line
    message(FATAL_ERROR
      "${n} include(s) outside the freestanding whitelist. Portable code (src/, port/loop/, "
      "include/) is built for bare-metal targets and may include only "
      "<stdint.h> <stddef.h> <stdbool.h> <stdarg.h> <string.h> <errno.h> and its own headers. "
      "Move platform code to port/posix/ (see docs/BUILDING.md, \"Header whitelist\").")
  endif()
endfunction()

# Right-align a number (or any text) in a field of `width` characters.
function(tern_pad out text width)
  string(LENGTH "${text}" len)
  set(s "${text}")
  while(len LESS width)
    string(PREPEND s " ")
    math(EXPR len "${len} + 1")
  endwhile()
  set(${out} "${s}" PARENT_SCOPE)
endfunction()

function(tern_pad_right out text width)
  string(LENGTH "${text}" len)
  set(s "${text}")
  while(len LESS width)
    string(APPEND s " ")
    math(EXPR len "${len} + 1")
  endwhile()
  set(${out} "${s}" PARENT_SCOPE)
endfunction()

# Script mode: TERN_CROSS_CONFIG (written at generate time) names the libraries and tools.
function(tern_size_report)
  include("${TERN_CROSS_CONFIG}")

  # --- link check -------------------------------------------------------------
  set(defined "")
  set(undefined_refs "")   # "symbol|library(object)"
  foreach(lib IN LISTS TERN_LIB_NAMES)
    set(path "${TERN_LIB_${lib}}")
    execute_process(COMMAND "${TERN_NM}" -g "${path}"
                    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${TERN_NM} -g ${path} failed: ${err}")
    endif()
    string(REPLACE ";" "," out "${out}")
    string(REPLACE "\n" ";" out "${out}")
    set(obj "?")
    foreach(l IN LISTS out)
      if(l MATCHES "^(.+):$")
        set(obj "${CMAKE_MATCH_1}")
      elseif(l MATCHES "^[ \t]+[Uw] (.+)$")
        list(APPEND undefined_refs "${CMAKE_MATCH_1}|${lib}(${obj})")
      elseif(l MATCHES "^[0-9a-fA-F]+ [A-Za-z] (.+)$")
        list(APPEND defined "${CMAKE_MATCH_1}")
      endif()
    endforeach()
  endforeach()
  set(bad "")
  foreach(ref IN LISTS undefined_refs)
    string(REGEX REPLACE "\\|.*$" "" sym "${ref}")
    string(REGEX REPLACE "^[^|]*\\|" "" where "${ref}")
    if(sym IN_LIST defined OR sym IN_LIST TERN_STRING_H_FUNCTIONS
       OR sym IN_LIST TERN_ALLOWED_UNDEFINED OR sym MATCHES "^__")
      continue()
    endif()
    list(APPEND bad "  ${where}: error: undefined reference to '${sym}'")
  endforeach()
  if(bad)
    list(REMOVE_DUPLICATES bad)
    string(REPLACE ";" "\n" text "${bad}")
    message(NOTICE "Portable libraries reference symbols that a bare-metal build does not have:\n${text}")
    message(FATAL_ERROR
      "Portable code may call only other portable code, the <string.h> functions and the "
      "compiler's runtime. Reach platform services through the interfaces in include/tern/ "
      "(clock, lock, executor), or list a symbol in TERN_CROSS_ALLOWED_UNDEFINED.")
  endif()

  # --- size -------------------------------------------------------------------
  set(report "")
  string(APPEND report
    "Tern portable libraries, ${TERN_TARGET_DESC} (bytes; object files before --gc-sections)\n")
  set(sum_text 0)
  set(sum_data 0)
  set(sum_bss 0)
  set(table "")
  foreach(lib IN LISTS TERN_LIB_NAMES)
    set(path "${TERN_LIB_${lib}}")
    get_filename_component(dir "${path}" DIRECTORY)
    get_filename_component(name "${path}" NAME)
    execute_process(COMMAND "${TERN_SIZE}" -t "${name}" WORKING_DIRECTORY "${dir}"
                    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${TERN_SIZE} -t ${path} failed: ${err}")
    endif()
    string(APPEND report "\n== ${lib}\n${out}")
    if(out MATCHES "[ \t]*([0-9]+)[ \t]+([0-9]+)[ \t]+([0-9]+)[ \t]+[0-9]+[ \t]+[0-9a-fA-F]+[ \t]+\\(TOTALS\\)")
      set(t ${CMAKE_MATCH_1})
      set(d ${CMAKE_MATCH_2})
      set(b ${CMAKE_MATCH_3})
    else()
      message(FATAL_ERROR "cannot read the totals of ${TERN_SIZE} -t ${path}:\n${out}")
    endif()
    math(EXPR sum_text "${sum_text} + ${t}")
    math(EXPR sum_data "${sum_data} + ${d}")
    math(EXPR sum_bss "${sum_bss} + ${b}")
    math(EXPR flash "${t} + ${d}")
    math(EXPR ram "${d} + ${b}")
    tern_pad_right(c0 "${lib}" 16)
    tern_pad(c1 "${t}" 8)
    tern_pad(c2 "${d}" 8)
    tern_pad(c3 "${b}" 8)
    tern_pad(c4 "${flash}" 9)
    tern_pad(c5 "${ram}" 8)
    string(APPEND table "${c0}${c1}${c2}${c3}${c4}${c5}\n")
  endforeach()
  math(EXPR sum_flash "${sum_text} + ${sum_data}")
  math(EXPR sum_ram "${sum_data} + ${sum_bss}")
  tern_pad_right(c0 "TOTAL" 16)
  tern_pad(c1 "${sum_text}" 8)
  tern_pad(c2 "${sum_data}" 8)
  tern_pad(c3 "${sum_bss}" 8)
  tern_pad(c4 "${sum_flash}" 9)
  tern_pad(c5 "${sum_ram}" 8)
  string(APPEND report "\n== summary (flash = text + data, RAM = data + bss)\n"
         "library             text    data     bss    flash     RAM\n"
         "${table}${c0}${c1}${c2}${c3}${c4}${c5}\n")

  # --- stack frames -----------------------------------------------------------
  file(GLOB_RECURSE su_files "${TERN_BINARY_DIR}/*.su")
  set(frames "")
  foreach(su IN LISTS su_files)
    file(STRINGS "${su}" su_lines)
    foreach(l IN LISTS su_lines)
      # file.c:LINE:COL:function<TAB>bytes<TAB>static|dynamic|dynamic,bounded
      if(l MATCHES "^([^:]+):([0-9]+):[0-9]+:([^\t]+)\t([0-9]+)\t(.*)$")
        tern_pad(n "${CMAKE_MATCH_4}" 8)
        set(src "${CMAKE_MATCH_1}")
        set(fn "${CMAKE_MATCH_3}")
        set(at "${CMAKE_MATCH_2}")
        set(kind "${CMAKE_MATCH_5}")
        if(IS_ABSOLUTE "${src}")
          file(RELATIVE_PATH src "${TERN_SOURCE_DIR}" "${src}")
        endif()
        list(APPEND frames "${n}  ${fn} (${src}:${at}) ${kind}")
      endif()
    endforeach()
  endforeach()
  if(frames)
    list(SORT frames ORDER DESCENDING)
    list(SUBLIST frames 0 10 top)
    string(REPLACE ";" "\n" top "${top}")
    string(APPEND report "\n== largest stack frames (bytes, callees not included)\n${top}\n")
  endif()

  string(APPEND report
    "\ntern-size: text=${sum_text} data=${sum_data} bss=${sum_bss} flash=${sum_flash} ram=${sum_ram}\n")
  file(WRITE "${TERN_BINARY_DIR}/tern-size.txt" "${report}")
endfunction()

# ------------------------------------------------------------------------------
if(CMAKE_SCRIPT_MODE_FILE)
  if(TERN_CROSS_ACTION STREQUAL "headers")
    tern_check_portable_headers("${TERN_SOURCE_DIR}" errors)
    tern_report_header_errors("${errors}")
  elseif(TERN_CROSS_ACTION STREQUAL "size")
    tern_size_report()
  else()
    message(FATAL_ERROR "CrossSize.cmake: unknown TERN_CROSS_ACTION '${TERN_CROSS_ACTION}'")
  endif()
  return()
endif()

# ------------------------------------------------------------------------------
# Project mode (included from the top-level CMakeLists.txt).

set(TERN_CROSS_ALLOWED_UNDEFINED "" CACHE STRING
    "Extra symbols the portable libraries may leave undefined in the cross build")

tern_check_portable_headers("${PROJECT_SOURCE_DIR}" _tern_header_errors)
tern_report_header_errors("${_tern_header_errors}")

get_property(_tern_portable_libs GLOBAL PROPERTY TERN_PORTABLE_LIBS)
if(NOT _tern_portable_libs)
  message(FATAL_ERROR "CrossSize.cmake: global property TERN_PORTABLE_LIBS is empty")
endif()

if(NOT CMAKE_SIZE)
  get_filename_component(_tern_cc_dir "${CMAKE_C_COMPILER}" DIRECTORY)
  string(REGEX REPLACE "gcc$" "size" _tern_size_name "${CMAKE_C_COMPILER}")
  get_filename_component(_tern_size_name "${_tern_size_name}" NAME)
  find_program(CMAKE_SIZE "${_tern_size_name}" HINTS "${_tern_cc_dir}")
endif()
if(NOT CMAKE_SIZE OR NOT CMAKE_NM)
  message(FATAL_ERROR "CrossSize.cmake: the cross toolchain's size and nm were not found "
                      "(CMAKE_SIZE='${CMAKE_SIZE}', CMAKE_NM='${CMAKE_NM}')")
endif()

# Every include is checked on every build, before anything portable compiles.
add_custom_target(tern_header_check ALL
  COMMAND "${CMAKE_COMMAND}" -DTERN_CROSS_ACTION=headers
          "-DTERN_SOURCE_DIR=${PROJECT_SOURCE_DIR}" -P "${CMAKE_CURRENT_LIST_FILE}"
  COMMENT "Checking portable code for non-freestanding headers"
  VERBATIM)

string(TOUPPER "${CMAKE_BUILD_TYPE}" _tern_bt)
# The target flags are not optional: if CMAKE_C_FLAGS was replaced on the
# command line (which drops the toolchain's CMAKE_C_FLAGS_INIT), add back what
# is missing.
separate_arguments(_tern_have UNIX_COMMAND "${CMAKE_C_FLAGS} ${CMAKE_C_FLAGS_${_tern_bt}}")
set(_tern_add "")
foreach(_flag IN LISTS TERN_CROSS_REQUIRED_FLAGS)
  if(NOT _flag IN_LIST _tern_have)
    list(APPEND _tern_add "${_flag}")
  endif()
endforeach()
if(TERN_CROSS_REQUIRED_FLAGS AND NOT "${_tern_have}" MATCHES "(^|;)-O")
  list(APPEND _tern_add -Os)
endif()
set(_tern_add_text "")
if(_tern_add)
  string(REPLACE ";" " " _tern_add_text "${_tern_add}")
  message(STATUS "Cross flags missing from CMAKE_C_FLAGS, added to the portable libraries: ${_tern_add_text}")
endif()
string(STRIP "${CMAKE_C_FLAGS} ${CMAKE_C_FLAGS_${_tern_bt}} ${_tern_add_text}" _tern_flags_text)
set(_tern_cfg "set(TERN_LIB_NAMES [==[${_tern_portable_libs}]==])\n")
foreach(_lib IN LISTS _tern_portable_libs)
  add_dependencies(${_lib} tern_header_check)
  # Per-function stack usage (.su files next to the objects) for the report.
  target_compile_options(${_lib} PRIVATE ${_tern_add} -fstack-usage)
  string(APPEND _tern_cfg "set(TERN_LIB_${_lib} [==[$<TARGET_FILE:${_lib}>]==])\n")
endforeach()
string(APPEND _tern_cfg
  "set(TERN_SIZE [==[${CMAKE_SIZE}]==])\n"
  "set(TERN_NM [==[${CMAKE_NM}]==])\n"
  "set(TERN_BINARY_DIR [==[${PROJECT_BINARY_DIR}]==])\n"
  "set(TERN_SOURCE_DIR [==[${PROJECT_SOURCE_DIR}]==])\n"
  "set(TERN_ALLOWED_UNDEFINED [==[${TERN_CROSS_ALLOWED_UNDEFINED}]==])\n"
  "set(TERN_TARGET_DESC [==[${CMAKE_SYSTEM_PROCESSOR} ${_tern_flags_text}]==])\n")
file(GENERATE OUTPUT "${PROJECT_BINARY_DIR}/tern_cross_libs.cmake" CONTENT "${_tern_cfg}")

add_custom_target(tern_size ALL
  COMMAND "${CMAKE_COMMAND}" -DTERN_CROSS_ACTION=size
          "-DTERN_CROSS_CONFIG=${PROJECT_BINARY_DIR}/tern_cross_libs.cmake"
          -P "${CMAKE_CURRENT_LIST_FILE}"
  COMMAND "${CMAKE_COMMAND}" -E cat "${PROJECT_BINARY_DIR}/tern-size.txt"
  COMMENT "Size of the portable libraries (${CMAKE_SIZE})"
  VERBATIM)
add_dependencies(tern_size ${_tern_portable_libs})
