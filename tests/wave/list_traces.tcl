# For scripts/wave-selftest: once GTKWave has loaded the view, write the
# visible time range, the primary marker (ps; -1 without one) and every
# displayed trace (groups included) to $COSIM_TRACE_LIST, with a marker also
# each trace's value under it ("value INDEX TEXT"), then "done".
# GTKWave stays open for the screenshot.
set out [open $::env(COSIM_TRACE_LIST) w]
puts $out "start [gtkwave::getWindowStartTime]"
puts $out "end [gtkwave::getWindowEndTime]"
set marker [gtkwave::getMarker]
puts $out "marker $marker"
set n [gtkwave::getTotalNumTraces]
for {set i 0} {$i < $n} {incr i} {
  puts $out "trace [gtkwave::getTraceNameFromIndex $i]"
  if {$marker >= 0} {
    puts $out "value $i [gtkwave::getTraceValueAtMarkerFromIndex $i]"
  }
}
puts $out "done"
close $out
