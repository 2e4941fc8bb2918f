# p99 put -> latest durable against the steady rate, status-store and raw librdkafka side by side
# (bench/latency_report.cpp writes the data). Called by scripts/bench.sh:
#   gnuplot -e "data='bench/results/latest-latency.tsv'; out='bench/results/latest-latency.png'; title='...'" bench/latency.gnuplot
set terminal png size 900,480 font ",10" noenhanced
set output out
set title title
set logscale x 10
set logscale y 2
set xlabel "updates per second (paced by the clock)"
set ylabel "p99 put -> latest durable (ms)"
set grid xtics ytics mxtics
set key top left
plot data using 1:2 skip 1 with linespoints linewidth 2 pointtype 7 linecolor rgb "#3b7dd8" title "status-store", \
     data using 1:3 skip 1 with linespoints linewidth 2 pointtype 5 linecolor rgb "#d83b3b" title "raw librdkafka"
