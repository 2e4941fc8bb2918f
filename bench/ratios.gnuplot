# The benchmark's scores as a bar chart: each bar is (measured ratio / target), turned so that higher
# is better; a bar at or above the line at 1 meets its target. Called by scripts/bench.sh:
#   gnuplot -e "data='bench/results/latest.tsv'; out='bench/results/latest.png'; title='...'" bench/ratios.gnuplot
set terminal png size 900,480 font ",10" noenhanced
set output out
set title title
set style data histograms
set style fill solid 0.8 border -1
set boxwidth 0.6
set yrange [0:*]
set ylabel "measured / target (>= 1 meets the target)"
set xtics nomirror rotate by -20
set grid ytics
set key off
plot data using 2:xtic(1) skip 1 linecolor rgb "#3b7dd8", 1 with lines linewidth 2 linecolor rgb "#d83b3b"
