# Install rules: what `cmake --install build --prefix P` puts under P, so the
# project can be used as a library by an outside program (docs/install.md):
#   P/lib/libpypto_{core,ir,ops,passes,codegen,sim}.a   the layers
#   P/include/pypto/...                                  the public headers
#   P/bin/pypto-opt, pypto-run, ...                      the tools
#   P/lib/cmake/pypto/pyptoConfig*.cmake                 find_package(pypto CONFIG)
#   P/lib/pkgconfig/pypto.pc                             pkg-config --cflags --libs pypto
#   P/lib/python3/dist-packages/pypto                    the Python package with _core
# The exported targets are pypto::core, pypto::ir, pypto::ops, pypto::passes,
# pypto::codegen, pypto::sim and the umbrella pypto::pypto. The ops layer fills
# the op registry through a weak reference (src/ir/op_registry.cc), so it must be
# linked whole-archive: the exported passes/codegen/sim targets carry the same
# $<LINK_LIBRARY:WHOLE_ARCHIVE,...> as the build tree, and pypto.pc wraps
# -lpypto_ops in -Wl,--whole-archive ... -Wl,--no-whole-archive.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(PYPTO_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/pypto)
# Debian's layout for python3 modules (no interpreter version in the path):
# `PYTHONPATH=P/lib/python3/dist-packages python3 -c 'import pypto'`.
set(PYPTO_INSTALL_PYTHONDIR "lib/python3/dist-packages" CACHE STRING
    "Where the Python package is installed, relative to the prefix")

set(PYPTO_LAYERS core ir ops passes codegen sim)
foreach(layer ${PYPTO_LAYERS})
  set_target_properties(pypto_${layer} PROPERTIES EXPORT_NAME ${layer})
endforeach()
set_target_properties(pypto PROPERTIES EXPORT_NAME pypto)
list(TRANSFORM PYPTO_LAYERS PREPEND pypto_ OUTPUT_VARIABLE PYPTO_LAYER_TARGETS)

install(TARGETS ${PYPTO_LAYER_TARGETS} pypto EXPORT pyptoTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/pypto DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS ${PYPTO_TOOL_TARGETS} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

install(EXPORT pyptoTargets NAMESPACE pypto:: DESTINATION ${PYPTO_INSTALL_CMAKEDIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/pyptoConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/cmake/pyptoConfig.cmake
                              INSTALL_DESTINATION ${PYPTO_INSTALL_CMAKEDIR}
                              PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/pyptoConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/cmake/pyptoConfig.cmake
              ${CMAKE_BINARY_DIR}/cmake/pyptoConfigVersion.cmake
        DESTINATION ${PYPTO_INSTALL_CMAKEDIR})

# pkg-config: relocatable, like the CMake package: the prefix is found from the
# .pc file's own directory (${pcfiledir}, pkgconf and pkg-config both define
# it), so `cmake --install --prefix ANY` needs no rewriting at install time.
file(RELATIVE_PATH PYPTO_PC_UP "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
string(REGEX REPLACE "/$" "" PYPTO_PC_UP "${PYPTO_PC_UP}")
set(PYPTO_PC_PREFIX "\${pcfiledir}/${PYPTO_PC_UP}")
configure_file(${CMAKE_SOURCE_DIR}/cmake/pypto.pc.in ${CMAKE_BINARY_DIR}/cmake/pypto.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/cmake/pypto.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

if(PYPTO_PYTHON)
  install(DIRECTORY ${CMAKE_SOURCE_DIR}/bindings/pypto DESTINATION ${PYPTO_INSTALL_PYTHONDIR}
          PATTERN "*.so" EXCLUDE PATTERN "__pycache__" EXCLUDE)
  install(TARGETS _core LIBRARY DESTINATION ${PYPTO_INSTALL_PYTHONDIR}/pypto)
endif()
