# The brute-force amida-kuji solver from the seed article
# (/work/shared/seeds/003_a3dd68fb5f9c884d.txt: its first Perl program, the one that starts
# `use strict; my $n = 6;`), laid out one statement per line again: in the seed text the whole
# program is flattened onto one line. Apart from this comment block and the line breaks and
# indentation, exactly two things were changed, so that it can be timed on a fixed goal:
#   1. `my $n = 6;`                    became  `my $n = 10;`
#   2. `my $goal = shuffle($start);`   became  `my $goal = 'JFBHIADEGC';`   (28 lines)
# The shuffle subroutine is kept as it was, unused. The comments in Japanese are the article's
# own. Time it with:  time perl benchmarks/seed_amida.pl > /dev/null
use strict;
my $n = 10; # くじの本数
my $start = join '', ('A' .. 'J')[0 .. $n - 1];
my $goal = 'JFBHIADEGC'; # 下部のアルファベットの並びを生成
my @amida = ($start);
my %hist = ($start => 0); # 生成済み文字列のチェックと正解手順作成用

while (@amida) {
  my $str = shift @amida;
  foreach my $i (0 .. $n - 2) {
    my $work = $str;
    my $char = substr $work, $i, 1, '';
    substr $work, $i + 1, 0, $char;
    next if exists $hist{$work};
    if ($work eq $goal) {
      disp($str, $i);
    } else {
      $hist{$work} = "$str:$i";
      push @amida, $work;
    }
  }
}

sub disp { # 正解表示用のサブルーチン
  my ($key, @result) = @_;
  while ($key ne $start) {
    unshift @result, (split /:/, $hist{$key})[1];
    $key = (split /:/, $hist{$key})[0];
  }
  print join(' ', split //, $start), "\n";
  while (@result) {
    my $line= join '', ("| ") x ($n - 1), "|\n";
    my @disp_idx = (0);
    foreach my $i (1 .. $#result) {
      push @disp_idx, $i unless grep { abs($result[$i] - $result[$_]) < 2 } 0 .. $i - 1;
    }
    substr($line, $result[$_] * 2 + 1, 1, '-') foreach @disp_idx;
    print $line;
    splice @result, $_, 1 foreach reverse @disp_idx;
  }
  print join(' ', split //, $goal), "\n";
  exit;
}

sub shuffle { # ゴールのアルファベットの並びを生成
  my @list = split //, $_[0];
  foreach my $i (reverse(0 .. $#list)) {
    my $j = int rand $i + 1;
    my $separate = join '', sort @list[$j, $i + 1 .. $#list];
    redo if $i and $start =~ /^$separate/;
    push @list, splice(@list, $j, 1);
  }
  return join('', @list);
}
