# Submission export: the `export_submission` target and the program manifest it reads.
#
# kit_add_program() records each program's HOST/CPU/GPU sources and libraries (whatever the
# backend, so that a CPU build can export the GPU solutions too). At the end of the top-level
# configure, when every target exists, the records are resolved into
# <build>/kit_programs.json: absolute source lists, the sources of every project library the
# program links (transitively), include directories and compile definitions. Imported targets
# (CUDA, HIP, Threads) are the platform's, not the kit's, and are not followed.
# Shell scripts read it through cmake/manifest.py.
#
#   cmake --build <build> --target export_submission
# writes KIT_EXPORT_DIR (default <source>/submission, git-ignored) with cmake/export_submission.py.
# The exporter resolves the backend branches of what it writes with unifdef (LeetGPU files for
# CUDA, contest folders for HIP); without unifdef it warns and keeps every branch. The smoke test
# below requires the pass wherever unifdef is installed.

set(KIT_EXPORT_DIR "${CMAKE_SOURCE_DIR}/submission" CACHE PATH
    "Where export_submission writes hip_programming_contest/ and leetgpu/")
find_package(Python3 COMPONENTS Interpreter QUIET)
find_program(KIT_UNIFDEF unifdef)
if(NOT KIT_UNIFDEF)
  message(STATUS "unifdef not found: exported files keep every backend branch")
endif()
set(_kit_export_dir "${CMAKE_CURRENT_LIST_DIR}")

# Called by kit_add_program (cmake/KitTargets.cmake) for every program, before any backend
# decision, with source paths relative to the calling folder.
function(_kit_export_record_program name source_dir host cpu gpu libraries)
  foreach(kind host cpu gpu)
    set(absolute "")
    foreach(src IN LISTS ${kind})
      get_filename_component(src "${src}" ABSOLUTE BASE_DIR "${source_dir}")
      list(APPEND absolute "${src}")
    endforeach()
    set_property(GLOBAL PROPERTY KIT_EXPORT_${name}_${kind} "${absolute}")
  endforeach()
  set_property(GLOBAL PROPERTY KIT_EXPORT_${name}_dir "${source_dir}")
  set_property(GLOBAL PROPERTY KIT_EXPORT_${name}_libraries "${libraries}")
  set_property(GLOBAL APPEND PROPERTY KIT_EXPORT_PROGRAMS ${name})
endfunction()

# Strips $<BUILD_INTERFACE:x> to x and drops every other generator expression (install
# interfaces, LINK_ONLY wrappers are unwrapped to their target).
function(_kit_export_plain out_var)
  set(result "")
  foreach(item IN LISTS ARGN)
    if(item MATCHES "^\\$<(BUILD_INTERFACE|LINK_ONLY):(.*)>$")
      list(APPEND result "${CMAKE_MATCH_2}")
    elseif(NOT item MATCHES "\\$<")
      list(APPEND result "${item}")
    endif()
  endforeach()
  set(${out_var} "${result}" PARENT_SCOPE)
endfunction()

# Collects, over `libraries` and everything they link (transitively, project targets only),
# sources, include directories, compile definitions and plain link names (-l).
function(_kit_export_walk prefix)
  set(pending ${ARGN})
  set(seen "")
  set(sources "")
  set(includes "")
  set(definitions "")
  set(links "")
  while(pending)
    list(POP_FRONT pending lib)
    if(NOT TARGET "${lib}")
      if(lib MATCHES "^[A-Za-z0-9_.+-]+$" AND NOT lib MATCHES "^(pthread|Threads)$")
        list(APPEND links "${lib}")
      endif()
      continue()
    endif()
    get_target_property(aliased "${lib}" ALIASED_TARGET)
    if(aliased)
      set(lib "${aliased}")
    endif()
    if(lib IN_LIST seen)
      continue()
    endif()
    list(APPEND seen "${lib}")
    get_target_property(imported "${lib}" IMPORTED)
    if(imported)
      continue()
    endif()
    get_target_property(type "${lib}" TYPE)
    set(props INTERFACE_INCLUDE_DIRECTORIES INTERFACE_COMPILE_DEFINITIONS INTERFACE_LINK_LIBRARIES)
    if(NOT type STREQUAL "INTERFACE_LIBRARY")
      list(APPEND props SOURCES INCLUDE_DIRECTORIES COMPILE_DEFINITIONS LINK_LIBRARIES)
    endif()
    get_target_property(lib_dir "${lib}" SOURCE_DIR)
    foreach(prop IN LISTS props)
      get_target_property(values "${lib}" ${prop})
      if(NOT values)
        continue()
      endif()
      _kit_export_plain(values ${values})
      if(prop STREQUAL "SOURCES")
        foreach(src IN LISTS values)
          get_filename_component(src "${src}" ABSOLUTE BASE_DIR "${lib_dir}")
          list(APPEND sources "${src}")
        endforeach()
      elseif(prop MATCHES "INCLUDE_DIRECTORIES$")
        list(APPEND includes ${values})
      elseif(prop MATCHES "COMPILE_DEFINITIONS$")
        list(APPEND definitions ${values})
      else()
        list(APPEND pending ${values})
      endif()
    endforeach()
  endwhile()
  foreach(kind sources includes definitions links)
    list(REMOVE_DUPLICATES ${kind})
    set(${prefix}_${kind} "${${kind}}" PARENT_SCOPE)
  endforeach()
endfunction()

function(_kit_export_json_list out_var)
  set(items "")
  foreach(item IN LISTS ARGN)
    string(REPLACE "\\" "\\\\" item "${item}")
    string(REPLACE "\"" "\\\"" item "${item}")
    list(APPEND items "\"${item}\"")
  endforeach()
  list(JOIN items ", " joined)
  set(${out_var} "[${joined}]" PARENT_SCOPE)
endfunction()

function(_kit_export_write_manifest)
  get_property(programs GLOBAL PROPERTY KIT_EXPORT_PROGRAMS)
  set(entries "")
  foreach(name IN LISTS programs)
    get_property(dir GLOBAL PROPERTY KIT_EXPORT_${name}_dir)
    get_property(libraries GLOBAL PROPERTY KIT_EXPORT_${name}_libraries)
    _kit_export_walk(walk kit::common ${libraries})
    if(TARGET ${name})
      set(built 1)
      get_target_property(own_definitions ${name} COMPILE_DEFINITIONS)
      if(own_definitions)
        _kit_export_plain(own_definitions ${own_definitions})
        list(PREPEND walk_definitions ${own_definitions})
      endif()
    else()
      set(built 0)
    endif()
    get_directory_property(dir_definitions DIRECTORY "${dir}" COMPILE_DEFINITIONS)
    list(PREPEND walk_definitions ${dir_definitions})
    set(fields "\"name\": \"${name}\"" "\"source_dir\": \"${dir}\"")
    list(APPEND fields "\"built\": ${built}")
    foreach(kind host cpu gpu)
      get_property(files GLOBAL PROPERTY KIT_EXPORT_${name}_${kind})
      _kit_export_json_list(json ${files})
      list(APPEND fields "\"${kind}_sources\": ${json}")
    endforeach()
    foreach(pair "library_sources;sources" "include_dirs;includes"
                 "compile_definitions;definitions" "link_libraries;links")
      list(GET pair 0 key)
      list(GET pair 1 kind)
      _kit_export_json_list(json ${walk_${kind}})
      list(APPEND fields "\"${key}\": ${json}")
    endforeach()
    list(JOIN fields ",\n      " joined)
    list(APPEND entries "    {\n      ${joined}\n    }")
  endforeach()
  _kit_export_walk(common kit::common)
  _kit_export_json_list(common_json ${common_includes})
  list(JOIN entries ",\n" programs_json)
  file(GENERATE OUTPUT "${CMAKE_BINARY_DIR}/kit_programs.json" CONTENT
"{
  \"version\": 1,
  \"source_root\": \"${CMAKE_SOURCE_DIR}\",
  \"backend\": \"${KIT_BACKEND}\",
  \"common_include_dirs\": ${common_json},
  \"programs\": [
${programs_json}
  ]
}
")

  if(Python3_Interpreter_FOUND)
    # The exporter's own tests on a fixture, and an export of this tree's real sources.
    add_test(NAME export_submission_unit
             COMMAND "${Python3_EXECUTABLE}" "${_kit_export_dir}/tests/test_export_submission.py")
    add_test(NAME export_prune_unit
             COMMAND "${Python3_EXECUTABLE}" "${_kit_export_dir}/tests/test_export_prune.py")
    add_test(NAME export_layout_unit
             COMMAND "${Python3_EXECUTABLE}" "${_kit_export_dir}/tests/test_export_layout.py")
    if(KIT_UNIFDEF)
      set(backend_pass on)
    else()
      set(backend_pass off)
    endif()
    add_test(NAME export_submission_smoke
             COMMAND "${Python3_EXECUTABLE}" "${_kit_export_dir}/export_submission.py"
                     --manifest "${CMAKE_BINARY_DIR}/kit_programs.json"
                     --out "${CMAKE_BINARY_DIR}/export-smoke" --backend-pass ${backend_pass})
    set_tests_properties(export_submission_unit export_prune_unit export_layout_unit
                         export_submission_smoke
                         PROPERTIES LABELS export TIMEOUT 120)
  endif()
endfunction()

cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _kit_export_write_manifest)

if(Python3_Interpreter_FOUND)
  add_custom_target(export_submission
    COMMAND "${Python3_EXECUTABLE}" "${_kit_export_dir}/export_submission.py"
            --manifest "${CMAKE_BINARY_DIR}/kit_programs.json" --out "${KIT_EXPORT_DIR}"
    WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
    COMMENT "Exporting the GPU solutions to ${KIT_EXPORT_DIR}"
    VERBATIM)
else()
  message(STATUS "Python 3 not found: the export_submission target is not available")
endif()
