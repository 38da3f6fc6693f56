# The contest problems, read from contest_problems.txt (the only list of them):
#   KIT_CONTEST_PROBLEMS           the names, in the list's order
#   KIT_CONTEST_VERIFY_<name>      the problem's `verify` rule
# Editing the list reconfigures.
include_guard(GLOBAL)

set(_kit_contest_list "${CMAKE_CURRENT_LIST_DIR}/../contest_problems.txt")
get_filename_component(_kit_contest_list "${_kit_contest_list}" ABSOLUTE)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_kit_contest_list}")
file(STRINGS "${_kit_contest_list}" _kit_contest_lines REGEX "^[^#]")
set(KIT_CONTEST_PROBLEMS "")
foreach(_kit_line IN LISTS _kit_contest_lines)
  if(_kit_line MATCHES "^[ \t]*$")
    continue()
  endif()
  if(NOT _kit_line MATCHES "^([a-z][a-z0-9_]*)[ \t]+([a-z]+)[ \t]+([0-9.]+)[ \t]*$")
    message(FATAL_ERROR "${_kit_contest_list}: '${_kit_line}': expected "
                        "'<name> <verify rule> <weight>'")
  endif()
  set(_kit_name "${CMAKE_MATCH_1}")
  if(_kit_name IN_LIST KIT_CONTEST_PROBLEMS)
    message(FATAL_ERROR "${_kit_contest_list}: ${_kit_name} is listed twice")
  endif()
  if(NOT EXISTS "${CMAKE_SOURCE_DIR}/${_kit_name}/CMakeLists.txt")
    message(FATAL_ERROR "${_kit_contest_list}: ${_kit_name}: no ${_kit_name}/CMakeLists.txt")
  endif()
  list(APPEND KIT_CONTEST_PROBLEMS "${_kit_name}")
  set(KIT_CONTEST_VERIFY_${_kit_name} "${CMAKE_MATCH_2}")
endforeach()
