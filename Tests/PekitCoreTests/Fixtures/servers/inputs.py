"""The query strings every server model is run on (shared by make_server_vectors.py)."""

COMMON = [
    # plain, repeated and mixed keys
    "", "a=1", "a=1&b=2", "a=1&a=2", "a=1&a=2&a=3", "b=2&a=1&b=3", "a", "a&b", "a=&b=", "=x", "=", "&", "&&a=1&&",
    "a=1&", "&a=1", "a==b", "a=b=c", "a&a=1", "a=1&a", "x=1&&y=2", "a=%20&b=+", "a+b=c+d", "a%20b=c%20d",
    "a=%2B&b=%2b", "a=+%2B+", "k=1&K=2", "a=1;b=2", "a=1; b=2", "a=1&; b=2", "a=1;;b=2", "a=1 &b=2",
    # brackets and nesting
    "a[]=1&a[]=2", "a[]=1&a[]=2&a[]=3", "a=1&a[]=2&a[]=3", "a[]=1&a=2", "a[0]=x&a[1]=y", "a[1]=x&a[0]=y",
    "a[1]=x&a[3]=y", "a[b][c]=d&a[b][e]=f", "a[x]=2&a[]=1", "a[]=1&a[b]=2", "a[b]=1&a[]=2", "a[][x]=1&a[][y]=2",
    "a[][x]=1&a[][x]=2", "a[][x]=1&a[][y]=2&a[][x]=3", "a[][]=1&a[][]=2", "a[][b][c]=1", "a[b][]=1&a[b][]=2",
    "a[20]=x", "a[21]=x", "a[0]=x&a[21]=y", "a[25]=x", "a[-1]=x", "a[-5]=x&a[]=y", "a[01]=x", "a[ 1]=x", "a[1 ]=x",
    "a[x]=1&a[]=y", "a[x]=1&a[5]=y&a[]=z", "a[9223372036854775807]=x&a[]=y", "a[9223372036854775808]=x",
    "a[4294967295]=x", "a[2147483648]=x&a[]=y", "a[b]c=1", "a[b]c[d]=1", "a[b]]=1", "a[b]=]=1", "a]b=1", "a[b=1",
    "a[b[c]=1", "a[[b]]=1", "[a]=1", "[]=1", "[0]=x", "[=1", "]=1", "a[]b=1", "a[b][c=1", "a[]]=1",
    "a[b]x=1&a[b]y=2", "a][=1", "a[=1", "a[b]=1&a=2", "a=2&a[b]=1", "a[b]=1&a[b][c]=2", "a[b][c]=2&a[b]=1",
    "c[d][e][f][g][h][i]=1", "c[d][e][f][g][h][i][j]=1", "a[b][c][d][e][f]=1",
    "a.b=c", "a.b.c=d", "a.b[c]=d", "a[b].c=d", "a..b=c", "a.=c", ".a=c", "a b=c", " a=c", "  a=c", "a.b[c=d",
    "a%5Bb%5D=c", "a%5bb%5d=c", "a[b%5D=c", "a%5B%5D=1&a%5B%5D=2",
    # prototype-ish names
    "toString=1", "a[toString]=1", "valueOf=x&b=1", "constructor=x", "a[constructor][b]=1", "__proto__=x",
    "a[__proto__]=x", "hasOwnProperty=1", "a[b]=1&a=toString",
    # escapes, NUL, UTF-8
    "p=%zz&q=100%", "a=%", "a=%4", "a=%41", "a=%4g", "%=1", "%zz=1", "a%=1", "a=%E5%B0%8F", "a=%E5%B0",
    "a=%FF", "%FF=1", "a=%C3%28", "a=%ED%A0%80", "a=%F0%9F%98%80", "a=%E2%82", "a=\u5c0f", "\u5c0f=\u5b57",
    "a=%00&b=1", "a%00b=1", "a[%00]=1", "%00=1", "a=1%00", "a[b%00c]=1", "a=%e5%b0%8f&b=%e5",
    "utf8=%E2%9C%93&a=%E5%B0%8F", "utf8=%26%2310003%3B&a=%E9", "a=&#9731;", "a=1,2,3", "a=1%2C2", "a[]=1,2",
    "a=%C3%A9&%C3%A9=a", "a=caf%E9", "__Host-x=1", "..Host-x=1", " __Host-x=1", "a[__Host-x]=1",
    "?a=1", "??a=1", "a=1#b", "a=1?b=2", "a=b&c=d;e=f&g", "a[]=1;a[]=2",
]
