# Prepares CMake's HIP language before enable_language(HIP), for two kinds of ROCm install:
#
#  * a standard ROCm tree (/opt/rocm or $ROCM_PATH, the contest cluster): CMake finds the ROCm
#    clang and <root>/lib/cmake/hip-lang by itself; nothing is changed.
#  * Debian 12's packaged ROCm 5.2 (hipcc, libamdhip64-dev, rocm-device-libs, ...) under /usr, which
#    CMake 3.25 cannot use as is: it looks for <root>/lib/cmake/hip-lang but Debian installs it
#    under the multiarch lib/<triplet>/cmake, and Debian's clang++-15 does not find the device
#    libraries without --rocm-path and --hip-device-lib-path. We point CMake at a small shim root
#    in the build tree whose lib/cmake/hip-lang forwards to Debian's package, put the multiarch
#    cmake dir on CMAKE_PREFIX_PATH (the compiler check's find_package needs it) and add the
#    two clang flags to CMAKE_HIP_FLAGS.

function(_kit_find_debian_hip out_root out_cmake_dir out_bitcode out_clang)
  set(${out_root} "" PARENT_SCOPE)
  if(NOT CMAKE_LIBRARY_ARCHITECTURE)
    set(_triplet x86_64-linux-gnu)
  else()
    set(_triplet ${CMAKE_LIBRARY_ARCHITECTURE})
  endif()
  set(_cmake_dir /usr/lib/${_triplet}/cmake)
  set(_bitcode /usr/lib/${_triplet}/amdgcn/bitcode)
  if(NOT EXISTS ${_cmake_dir}/hip-lang/hip-lang-config.cmake OR NOT EXISTS ${_bitcode})
    return()
  endif()
  # Debian's HIP is built against a specific LLVM; prefer the newest versioned clang++ present.
  find_program(_clang NAMES clang++-17 clang++-16 clang++-15 NO_CACHE)
  if(NOT _clang)
    return()
  endif()
  set(${out_root} /usr PARENT_SCOPE)
  set(${out_cmake_dir} ${_cmake_dir} PARENT_SCOPE)
  set(${out_bitcode} ${_bitcode} PARENT_SCOPE)
  set(${out_clang} ${_clang} PARENT_SCOPE)
endfunction()

set(_kit_rocm_path "$ENV{ROCM_PATH}")
if(NOT _kit_rocm_path AND EXISTS /opt/rocm/lib/cmake/hip-lang/hip-lang-config.cmake)
  set(_kit_rocm_path /opt/rocm)
endif()

if(_kit_rocm_path AND EXISTS ${_kit_rocm_path}/lib/cmake/hip-lang/hip-lang-config.cmake)
  # Standard ROCm: let CMake use the ROCm clang and locate everything itself.
  list(APPEND CMAKE_PREFIX_PATH ${_kit_rocm_path})
  if(NOT CMAKE_HIP_COMPILER AND EXISTS ${_kit_rocm_path}/llvm/bin/clang++)
    set(CMAKE_HIP_COMPILER ${_kit_rocm_path}/llvm/bin/clang++)
  endif()
else()
  _kit_find_debian_hip(_deb_root _deb_cmake _deb_bitcode _deb_clang)
  if(NOT _deb_root)
    message(FATAL_ERROR
      "GPU_BACKEND=HIP: no ROCm found. Install ROCm (/opt/rocm, or set ROCM_PATH) or, on Debian 12, "
      "apt-get install hipcc libamdhip64-dev rocm-device-libs libamd-comgr-dev libhsa-runtime-dev")
  endif()
  message(STATUS "HIP: using Debian's packaged ROCm (${_deb_clang}, ${_deb_cmake})")
  set(_shim ${CMAKE_BINARY_DIR}/kit-rocm-shim)
  # The shim also puts the multiarch dir on the prefix path, because CMake's compiler check runs
  # it inside a try_compile project that does not inherit our CMAKE_PREFIX_PATH.
  file(WRITE ${_shim}/lib/cmake/hip-lang/hip-lang-config.cmake
       "list(APPEND CMAKE_PREFIX_PATH \"${_deb_cmake}\")\n"
       "include(\"${_deb_cmake}/hip-lang/hip-lang-config.cmake\")\n")
  set(CMAKE_HIP_COMPILER_ROCM_ROOT ${_shim} CACHE PATH "ROCm root seen by CMake's HIP language")
  if(NOT CMAKE_HIP_COMPILER)
    set(CMAKE_HIP_COMPILER ${_deb_clang})
  endif()
  list(APPEND CMAKE_PREFIX_PATH ${_deb_cmake})
  set(_kit_deb_flags "--rocm-path=/usr --hip-device-lib-path=${_deb_bitcode}")
  if(NOT CMAKE_HIP_FLAGS MATCHES "--rocm-path")
    set(CMAKE_HIP_FLAGS "${CMAKE_HIP_FLAGS} ${_kit_deb_flags}" CACHE STRING "HIP flags" FORCE)
  endif()
endif()
