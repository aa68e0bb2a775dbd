# For scripts/wave-selftest: once GTKWave has loaded the view, write the
# visible time range, the primary marker (ps; -1 without one) and every
# displayed trace (groups included) to $COSIM_TRACE_LIST, then "done".
# GTKWave stays open for the screenshot.
set out [open $::env(COSIM_TRACE_LIST) w]
puts $out "start [gtkwave::getWindowStartTime]"
puts $out "end [gtkwave::getWindowEndTime]"
puts $out "marker [gtkwave::getMarker]"
set n [gtkwave::getTotalNumTraces]
for {set i 0} {$i < $n} {incr i} {
  puts $out "trace [gtkwave::getTraceNameFromIndex $i]"
}
puts $out "done"
close $out
