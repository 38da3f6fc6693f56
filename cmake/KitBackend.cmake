# Backend selection: GPU_BACKEND = AUTO | CUDA | HIP | CPU, GPU_ARCH = architectures.
#
# AUTO picks HIP when an AMD GPU is visible (/dev/kfd plus a gfx agent), CUDA when an NVIDIA GPU is
# visible (nvidia-smi lists one) and CPU otherwise, so a fresh laptop or CI machine gets a working
# CPU build with no flags at all. An explicit CUDA or HIP builds without a GPU (compile and link).
#
# Results for the rest of the build:
#   KIT_BACKEND      CUDA, HIP or CPU (what was actually chosen)
#   KIT_GPU          TRUE for CUDA and HIP
#   KIT_GPU_LANGUAGE CUDA or HIP: the language kernel sources (*.cu) are compiled as
#   kit::backend     interface target carrying KIT_BACKEND_<X>=1 and the runtime library

set(GPU_BACKEND "AUTO" CACHE STRING "GPU backend: AUTO, CUDA, HIP or CPU")
set_property(CACHE GPU_BACKEND PROPERTY STRINGS AUTO CUDA HIP CPU)
set(GPU_ARCH "" CACHE STRING
    "GPU architectures (HIP default gfx908; CUDA default: visible GPU, else 90;100)")

function(_kit_visible_amd_arch out_var)
  set(${out_var} "" PARENT_SCOPE)
  if(NOT EXISTS "/dev/kfd")
    return()
  endif()
  find_program(_kit_agent_enum rocm_agent_enumerator HINTS /opt/rocm/bin ENV ROCM_PATH PATH_SUFFIXES bin)
  if(_kit_agent_enum)
    execute_process(COMMAND ${_kit_agent_enum} OUTPUT_VARIABLE _agents ERROR_QUIET
                    RESULT_VARIABLE _rc TIMEOUT 20)
    string(REGEX MATCHALL "gfx[0-9a-f]+" _gfx "${_agents}")
    list(REMOVE_ITEM _gfx gfx000)  # gfx000 is the CPU agent
    if(_rc EQUAL 0 AND _gfx)
      list(GET _gfx 0 _first)
      set(${out_var} "${_first}" PARENT_SCOPE)
    endif()
  endif()
endfunction()

function(_kit_visible_nvidia_arch out_var)
  set(${out_var} "" PARENT_SCOPE)
  find_program(_kit_nvsmi nvidia-smi)
  if(NOT _kit_nvsmi)
    return()
  endif()
  execute_process(COMMAND ${_kit_nvsmi} --query-gpu=compute_cap --format=csv,noheader
                  OUTPUT_VARIABLE _caps ERROR_QUIET RESULT_VARIABLE _rc TIMEOUT 20)
  string(REGEX MATCH "([0-9]+)\\.([0-9]+)" _cap "${_caps}")
  if(_rc EQUAL 0 AND _cap)
    set(${out_var} "${CMAKE_MATCH_1}${CMAKE_MATCH_2}" PARENT_SCOPE)
  endif()
endfunction()

set(_kit_backend "${GPU_BACKEND}")
string(TOUPPER "${_kit_backend}" _kit_backend)
if(NOT _kit_backend MATCHES "^(AUTO|CUDA|HIP|CPU)$")
  message(FATAL_ERROR "GPU_BACKEND='${GPU_BACKEND}': expected AUTO, CUDA, HIP or CPU")
endif()

_kit_visible_amd_arch(_kit_amd_arch)
_kit_visible_nvidia_arch(_kit_nv_arch)

if(_kit_backend STREQUAL "AUTO")
  if(_kit_amd_arch)
    set(_kit_backend HIP)
  elseif(_kit_nv_arch)
    include(CheckLanguage)
    check_language(CUDA)
    if(CMAKE_CUDA_COMPILER)
      set(_kit_backend CUDA)
    else()
      message(WARNING "An NVIDIA GPU is visible but no CUDA compiler was found: CPU backend")
      set(_kit_backend CPU)
    endif()
  else()
    set(_kit_backend CPU)
  endif()
  message(STATUS "GPU_BACKEND=AUTO selected ${_kit_backend}")
endif()

set(KIT_BACKEND "${_kit_backend}")
add_library(kit_backend INTERFACE)
add_library(kit::backend ALIAS kit_backend)
target_compile_definitions(kit_backend INTERFACE KIT_BACKEND_${KIT_BACKEND}=1)

if(KIT_BACKEND STREQUAL "CUDA")
  if(NOT GPU_ARCH)
    if(_kit_nv_arch)
      set(GPU_ARCH "${_kit_nv_arch}")
    else()
      set(GPU_ARCH "90;100")
    endif()
  endif()
  set(CMAKE_CUDA_ARCHITECTURES "${GPU_ARCH}")
  if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  enable_language(CUDA)
  set(CMAKE_CUDA_STANDARD 17)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  find_package(CUDAToolkit REQUIRED)
  target_link_libraries(kit_backend INTERFACE CUDA::cudart_static)
  # Kernels rely on the host compiler seeing C++17 and on lambdas in device code.
  string(APPEND CMAKE_CUDA_FLAGS " --extended-lambda --expt-relaxed-constexpr")
  set(KIT_GPU TRUE)
  set(KIT_GPU_LANGUAGE CUDA)
elseif(KIT_BACKEND STREQUAL "HIP")
  if(NOT GPU_ARCH)
    if(_kit_amd_arch)
      set(GPU_ARCH "${_kit_amd_arch}")
    else()
      set(GPU_ARCH "gfx908")
    endif()
  endif()
  set(CMAKE_HIP_ARCHITECTURES "${GPU_ARCH}")
  # Each HIP compile also writes its kernels' registers, spills and scratch beside its object
  # (cmake/hip_resource_remarks.sh), which the spill checks then read from the build
  # (BUILD_DIR=<build> <problem>/tests/hip_resource_usage.sh) instead of compiling again.
  option(KIT_HIP_RESOURCE_USAGE "HIP builds: record every kernel's resource usage beside its object"
         OFF)
  if(KIT_HIP_RESOURCE_USAGE)
    set(CMAKE_HIP_COMPILER_LAUNCHER ${CMAKE_CURRENT_LIST_DIR}/hip_resource_remarks.sh)
  endif()
  include(${CMAKE_CURRENT_LIST_DIR}/KitHipToolchain.cmake)
  enable_language(HIP)
  set(CMAKE_HIP_STANDARD 17)
  set(CMAKE_HIP_STANDARD_REQUIRED ON)
  find_package(hip REQUIRED CONFIG)
  target_link_libraries(kit_backend INTERFACE hip::host)
  set(KIT_GPU TRUE)
  set(KIT_GPU_LANGUAGE HIP)
else()
  set(KIT_GPU FALSE)
  set(KIT_GPU_LANGUAGE "")
endif()

# The MI100 persona (common/gpu/persona.h): a CUDA build whose kernels run with 64-lane warps and
# whose host code sees MI100's limits and gfx908's tuning tables, to execute the paths only AMD
# takes. For testing on NVIDIA GPUs; never for a submission.
set(KIT_PERSONA "" CACHE STRING "CUDA builds: run the kernels as gfx908 (MI100) for testing")
if(KIT_PERSONA)
  if(NOT KIT_PERSONA STREQUAL "gfx908")
    message(FATAL_ERROR "KIT_PERSONA=${KIT_PERSONA}: the one persona is gfx908")
  endif()
  if(NOT KIT_BACKEND STREQUAL "CUDA")
    message(FATAL_ERROR "KIT_PERSONA=gfx908 needs GPU_BACKEND=CUDA (the persona runs on NVIDIA)")
  endif()
  target_compile_definitions(kit_backend INTERFACE KIT_PERSONA_GFX908=1)
  message(STATUS "MI100 persona: 64-lane warps and gfx908's limits on the NVIDIA GPU")
endif()

if(KIT_GPU)
  message(STATUS "Backend: ${KIT_BACKEND}, architectures ${GPU_ARCH}")
else()
  message(STATUS "Backend: CPU (reference solvers; no GPU code is compiled)")
endif()
