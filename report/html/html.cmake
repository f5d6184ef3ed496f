# html.cmake: adds the HTML writer to ss_report: html.c with html_page.c, html_timeline.c and
# html_data.c, and the page's assets (CSS, script,
# template) turned into a C source at build time by embed.cmake.
set(SS_HTML_ASSET_FILES
    ${CMAKE_CURRENT_LIST_DIR}/page.html
    ${CMAKE_CURRENT_LIST_DIR}/report.css
    ${CMAKE_CURRENT_LIST_DIR}/report.js)
set(SS_HTML_ASSETS_C ${CMAKE_CURRENT_BINARY_DIR}/html_assets.c)
add_custom_command(
  OUTPUT ${SS_HTML_ASSETS_C}
  COMMAND ${CMAKE_COMMAND} -DOUT=${SS_HTML_ASSETS_C} "-DFILES=${SS_HTML_ASSET_FILES}"
          -P ${CMAKE_CURRENT_LIST_DIR}/embed.cmake
  DEPENDS ${SS_HTML_ASSET_FILES} ${CMAKE_CURRENT_LIST_DIR}/embed.cmake
  COMMENT "Embedding the HTML report assets"
  VERBATIM)

# The generated source belongs to one target only: listed in both libraries, the Makefile
# generator ran the embedding twice at once under -j, and one run's rename lost the race.
# It is data only (no sanitizer, position-independent), shared by both variants.
add_library(ss_html_assets OBJECT ${SS_HTML_ASSETS_C})
set_target_properties(ss_html_assets PROPERTIES POSITION_INDEPENDENT_CODE ON)
set(SS_HTML_SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/../html.c
    ${CMAKE_CURRENT_LIST_DIR}/../html_page.c
    ${CMAKE_CURRENT_LIST_DIR}/../html_timeline.c
    ${CMAKE_CURRENT_LIST_DIR}/../html_data.c)
target_sources(ss_report PRIVATE ${SS_HTML_SOURCES} $<TARGET_OBJECTS:ss_html_assets>)
target_sources(ss_report_plain PRIVATE ${SS_HTML_SOURCES} $<TARGET_OBJECTS:ss_html_assets>)

# zlib deflates the timeline. Only the tool's variant uses it: the _plain variant is loaded
# into the observed program, which must not get an extra library.
find_package(ZLIB QUIET)
if(ZLIB_FOUND)
  target_link_libraries(ss_report PRIVATE ZLIB::ZLIB)
  target_compile_definitions(ss_report PRIVATE SS_HAVE_ZLIB=1)
else()
  message(STATUS "syncscope: zlib not found (Debian package 'zlib1g-dev'); HTML timelines "
                 "are embedded uncompressed")
endif()
